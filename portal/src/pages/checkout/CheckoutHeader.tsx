import { Box, Container, Group, Text, Title } from '@mantine/core';
import { texts } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { BrandLink } from '../../ui/BrandLink.tsx';

/**
 * Spec: the checkout's header is 'Checkout' with the studio's logo. Other pages of the purchase (the order
 * confirmation) name themselves (`title`) and keep their own h1 in the page.
 */
export function CheckoutHeader({ title }: { title?: string }) {
  const config = useAppConfig();
  return (
    <Box component="header" bg="var(--mantine-color-body)" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Container size="lg" py="sm">
        <Group justify="space-between" wrap="nowrap">
          <BrandLink config={config} to="/" />
          {title ? (
            <Text fw={700} fz={{ base: 18, sm: 22 }}>
              {title}
            </Text>
          ) : (
            <Title order={1} fz={{ base: 22, sm: 26 }}>
              {texts.checkout.heading}
            </Title>
          )}
        </Group>
      </Container>
    </Box>
  );
}
