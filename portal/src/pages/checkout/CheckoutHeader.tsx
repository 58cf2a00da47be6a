import { Box, Container, Group, Image, Text, Title, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { texts } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';

/** Spec: the checkout's header is 'Checkout' with the studio's logo. */
export function CheckoutHeader() {
  const config = useAppConfig();
  return (
    <Box component="header" bg="var(--mantine-color-body)" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Container size="lg" py="sm">
        <Group justify="space-between" wrap="nowrap">
          <UnstyledButton component={Link} to="/" aria-label={config.business_name}>
            {config.navbar_logo ? (
              <Image src={config.navbar_logo} alt={config.business_name} h={40} w="auto" fit="contain" />
            ) : (
              <Text fw={800} size="lg">
                {config.business_name}
              </Text>
            )}
          </UnstyledButton>
          <Title order={1} fz={{ base: 22, sm: 26 }}>
            {texts.checkout.heading}
          </Title>
        </Group>
      </Container>
    </Box>
  );
}
