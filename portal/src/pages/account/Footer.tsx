import { Anchor, Box, Container, Divider, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBrandFacebook, IconBrandInstagram, IconBrandTiktok, IconBrandWhatsapp, IconMail, IconMapPin } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { texts, type AppConfigMap } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { whatsappLink } from './links.ts';
import classes from './AccountLayout.module.css';

function ContactLink({ href, icon, children }: { href: string; icon: ReactNode; children: ReactNode }) {
  const external = !href.startsWith('mailto:');
  return (
    <Anchor href={href} className={classes.footerLink} target={external ? '_blank' : undefined} rel={external ? 'noopener noreferrer' : undefined}>
      <Group gap={8} wrap="nowrap">
        {icon}
        <span>{children}</span>
      </Group>
    </Anchor>
  );
}

const handle = (url: string) => url.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, '');

/** Spec footer: CONTACTO and UBICACIÓN (only what is configured), INFORMACIÓN and 'Powered by' (when named). */
export function Footer({ config, whatsappPrefix = '52' }: { config: AppConfigMap; whatsappPrefix?: '52' | '521' }) {
  const pages = trpc.pages.list.useQuery(undefined, { staleTime: 5 * 60_000 });
  const infoPages = (pages.data?.pages ?? []).filter((page) => page.content && page.content.trim());
  const whatsapp = whatsappLink(config.whatsapp, whatsappPrefix);
  const iconProps = { size: 18, stroke: 1.6 } as const;
  const hasContact = Boolean(whatsapp || config.email || config.facebook || config.instagram || config.tiktok);

  return (
    <Box component="footer" className={classes.footer}>
      <Container size="lg" py={48}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing={{ base: 32, md: 48 }}>
          <Stack gap="sm">
            {config.navbar_logo ? (
              <Box className={classes.footerLogoBox}>
                <Image src={config.navbar_logo} alt={config.business_name} h={40} w="auto" fit="contain" />
              </Box>
            ) : null}
            <Text fw={700}>{config.business_name}</Text>
            {config.tagline && (
              <Text size="sm" className={classes.footerMuted}>
                {config.tagline}
              </Text>
            )}
          </Stack>
          {hasContact && (
            <Stack gap="xs">
              <Title order={2} className={classes.footerHeading}>
                {texts.footer.contact}
              </Title>
              {whatsapp && <ContactLink href={whatsapp} icon={<IconBrandWhatsapp {...iconProps} />}>{config.whatsapp}</ContactLink>}
              {config.email && <ContactLink href={`mailto:${config.email}`} icon={<IconMail {...iconProps} />}>{config.email}</ContactLink>}
              {config.facebook && <ContactLink href={config.facebook} icon={<IconBrandFacebook {...iconProps} />}>{handle(config.facebook)}</ContactLink>}
              {config.instagram && <ContactLink href={config.instagram} icon={<IconBrandInstagram {...iconProps} />}>{handle(config.instagram)}</ContactLink>}
              {config.tiktok && <ContactLink href={config.tiktok} icon={<IconBrandTiktok {...iconProps} />}>{handle(config.tiktok)}</ContactLink>}
            </Stack>
          )}
          {config.location && (
            <Stack gap="xs">
              <Title order={2} className={classes.footerHeading}>
                {texts.footer.location}
              </Title>
              <Group gap={8} wrap="nowrap" align="flex-start">
                <IconMapPin {...iconProps} className={classes.footerIcon} />
                <Text size="sm" className={classes.footerMuted}>
                  {config.location}
                </Text>
              </Group>
            </Stack>
          )}
          <Stack gap="xs">
            <Title order={2} className={classes.footerHeading}>
              {texts.footer.information}
            </Title>
            {infoPages.map((page) => (
              <Anchor key={page.page_id} component={Link} to={`/${page.slug}`} className={classes.footerLink}>
                {page.title}
              </Anchor>
            ))}
            <Anchor component={Link} to="/avisos" className={classes.footerLink}>
              {texts.footer.notices}
            </Anchor>
          </Stack>
        </SimpleGrid>
        {config.powered_by_name && (
          <>
            <Divider my="xl" className={classes.footerDivider} />
            <Text size="xs" ta="center" className={classes.footerMuted}>
              {texts.footer.poweredBy}{' '}
              {config.powered_by_url ? (
                <Anchor href={config.powered_by_url} target="_blank" rel="noopener noreferrer" inherit className={classes.footerLink}>
                  {config.powered_by_name}
                </Anchor>
              ) : (
                config.powered_by_name
              )}
            </Text>
          </>
        )}
      </Container>
    </Box>
  );
}
