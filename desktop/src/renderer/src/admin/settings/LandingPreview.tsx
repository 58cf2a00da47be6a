import { Badge, Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { isOn, landingSectionLabels, landingSections, texts, type AppConfigMap, type LandingSectionKey } from '@estudio/core';

const colour = (value: string, fallback: string) => (/^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback);

function SectionBlock({ section, config }: { section: LandingSectionKey; config: AppConfigMap }) {
  const primary = colour(config.primary, '#d6336c');
  const secondary = colour(config.secondary, '#1c7ed6');
  switch (section) {
    case 'hero':
      return (
        <Box p="md" style={{ background: `linear-gradient(135deg, ${primary}, ${secondary})`, color: 'white' }}>
          <Title order={4} c="white" data-testid="preview-hero-title">
            {config.hero_title || config.business_name}
          </Title>
          {(config.hero_text || config.tagline) && (
            <Text size="xs" mt={4} lineClamp={3}>
              {config.hero_text || config.tagline}
            </Text>
          )}
          <Group gap={6} mt="xs">
            <Button size="compact-xs" radius="xl" color={primary} variant="white" c={primary}>
              {texts.landing.bookCta}
            </Button>
            <Button size="compact-xs" radius="xl" variant="white" color="dark">
              {texts.landing.packagesCta}
            </Button>
          </Group>
        </Box>
      );
    case 'about':
    case 'mission': {
      const title = section === 'about' ? config.about_title || texts.nav.publicUs : config.mission_title;
      const body = section === 'about' ? config.about_text : config.mission_text;
      return (
        <Box p="sm">
          <Text fw={700} size="sm">
            {title}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {body}
          </Text>
        </Box>
      );
    }
    default:
      // Class types, coaches, packages, notices and the schedule come from the catalogue, not from these settings.
      return (
        <Box p="sm">
          <Text fw={700} size="sm">
            {section === 'packages' ? config.class_packages_name || landingSectionLabels.packages : landingSectionLabels[section]}
          </Text>
          <Group gap={6} mt={4}>
            {[0, 1, 2].map((i) => (
              <Box key={i} h={22} style={{ flex: 1, borderRadius: 4, background: `${colour(config.accent, '#f59f00')}33` }} />
            ))}
          </Group>
        </Box>
      );
  }
}

/**
 * A small likeness of the portal's landing drawn from the form's values as
 * they are typed, before anything is saved: the bar with the
 * studio's name, the sections the landing shows in their order (core's
 * landingSections, the portal's own rule), the footer's contact; under it the
 * banner of the account pages and whether the pop-up is on. Images are named, not loaded: they live on the server.
 */
export function LandingPreview({ config }: { config: AppConfigMap }) {
  const primary = colour(config.primary, '#d6336c');
  const sections = landingSections(config);
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }} data-testid="landing-preview" aria-label="Vista previa de la portada">
      <Group gap={4} px="xs" py={4} bg="gray.1">
        {['#fa5252', '#fab005', '#40c057'].map((c) => (
          <Box key={c} w={8} h={8} style={{ borderRadius: 8, background: c }} />
        ))}
        <Text size="xs" c="dimmed" ml="xs" truncate>
          {config.domain || 'tu-estudio'} · vista previa sin guardar
        </Text>
      </Group>
      <Group justify="space-between" px="sm" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Text fw={800} size="sm" c={primary} data-testid="preview-name">
          {config.business_name}
        </Text>
        <Group gap={8}>
          <Text size="xs">{texts.nav.publicSchedule}</Text>
          <Text size="xs">{config.class_packages_name || texts.nav.packagesDefault}</Text>
        </Group>
      </Group>
      <Stack gap={0} data-testid="preview-sections">
        {sections.map((section) => (
          <div key={section} data-preview-section={section}>
            <SectionBlock section={section} config={config} />
          </div>
        ))}
        {sections.length === 0 && (
          <Text size="xs" c="dimmed" p="sm">
            Ninguna sección encendida: la portada quedaría vacía.
          </Text>
        )}
      </Stack>
      <Box px="sm" py={6} bg="dark.7">
        <Text size="xs" c="gray.4" lineClamp={2}>
          {[config.email, config.whatsapp, config.location].filter(Boolean).join(' · ')}
        </Text>
      </Box>
      {isOn(config.banner_enabled) && config.banner_text.trim() && (
        // The portal shows the banner over the customer's account pages (Mis Reservaciones, Mis Compras…), not on the landing.
        <Box p={6} style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          <Text size="xs" c="dimmed">
            En Mi Cuenta:
          </Text>
          <Box px="sm" py={4} style={{ background: primary, color: 'white', borderRadius: 4 }} data-testid="preview-banner">
            <Text size="xs" ta="center">
              {config.banner_text}
            </Text>
          </Box>
        </Box>
      )}
      {isOn(config.popup_presencial_enabled) && (
        <Box p={6}>
          <Badge variant="light" color="grape" size="sm" tt="none">
            Aviso emergente: {config.popup_presencial_src || 'sin imagen (no se mostrará)'}
          </Badge>
        </Box>
      )}
    </Paper>
  );
}
