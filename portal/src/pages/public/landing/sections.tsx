import { useState, type ReactNode } from 'react';
import { Anchor, Box, Button, Card, Container, Grid, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { texts, type AppConfigMap } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { ScheduleView } from '../../../booking/ScheduleView.tsx';
import { PackageCard } from '../../../shop/PackageCard.tsx';
import { packageGrid } from '../../../shop/package-grid.ts';
import { SafeHtml } from '../../../ui/SafeHtml.tsx';
import { gridSizes } from '../../../ui/image-sources.ts';
import { ResponsiveImage } from '../../../ui/ResponsiveImage.tsx';
import { FallbackImage } from './FallbackImage.tsx';
import { fullName, initials } from './people.ts';
import classes from './Landing.module.css';

/**
 * One landing section with its heading; `id` anchors the navbar's links. `needsApp`: the section works only with the
 * app running (the week's calendar), so the app starts when it comes near the screen (decision 054).
 */
export function LandingSection({ name, title, id, alt, needsApp, children }: { name: string; title: ReactNode; id?: string; alt?: boolean; needsApp?: boolean; children: ReactNode }) {
  const headingId = `landing-${name}`;
  return (
    <Box
      component="section"
      id={id}
      data-section={name}
      data-needs-app={needsApp ? '' : undefined}
      aria-labelledby={headingId}
      className={`${classes.section} ${alt ? classes.sectionAlt : ''}`}
    >
      <Container size="lg">
        <Title order={2} id={headingId} fz={{ base: 26, sm: 34 }} mb={{ base: 'lg', sm: 'xl' }}>
          {title}
        </Title>
        {children}
      </Container>
    </Box>
  );
}

const cardGrid = { cols: { base: 1, xs: 2, md: 3 }, spacing: 'lg' } as const;
/** The width of one card of `cardGrid` (a picture across the card). */
const cardGridSizes = gridSizes(cardGrid.cols, cardGrid.spacing);
const classTypeGrid = { cols: { base: 1, xs: 2, md: 4 }, spacing: 'lg' } as const;
const coachGrid = { cols: { base: 2, sm: 3, md: 5 }, spacing: { base: 'sm', sm: 'lg' } } as const;
const textGrid = { cols: { base: 1, md: 2 }, gap: { base: 'lg', md: 48 } } as const;

function GridSkeleton({ count = 3, height = 240 }: { count?: number; height?: number }) {
  return (
    <SimpleGrid {...cardGrid}>
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} h={height} radius="lg" />
      ))}
    </SimpleGrid>
  );
}

/**
 * The hero's picture covers a box taller than wide on a phone (at least 380 px high, with the title and buttons) and
 * about 630 px high on a tablet: a landscape picture (16:9, as the demo's) is then shown by its height, wider than the
 * screen. From 62em the box is wider than tall and the picture spans the screen's width.
 */
const heroSizes = '(max-width: 36em) 720px, (max-width: 62em) 1140px, 100vw';

export function HeroSection({ config }: { config: AppConfigMap }) {
  return (
    <Box
      component="section"
      data-section="hero"
      aria-labelledby="landing-hero"
      className={classes.hero}
    >
      {/* An <img>, not a CSS background: the browser finds it in the page and a phone fetches the copy its screen needs (decision 049). */}
      <FallbackImage src={config.hero_image} alt="" sizes={heroSizes} priority="high" className={classes.heroImage} radius={0} />
      <div className={classes.heroShade} />
      <Container size="lg" className={classes.heroContent} py={64}>
        <Stack gap="lg" maw={620}>
          <Title order={1} id="landing-hero" fz={{ base: 36, sm: 52 }} lh={1.1}>
            {config.hero_title || config.business_name}
          </Title>
          {(config.hero_text || config.tagline) && (
            <Text fz={{ base: 'lg', sm: 20 }} opacity={0.92}>
              {config.hero_text || config.tagline}
            </Text>
          )}
          <Group gap="sm">
            <Button component={Link} to="/calendario" size="lg" radius="xl">
              {texts.landing.bookCta}
            </Button>
            <Button component={Link} to="/paquetes" size="lg" radius="xl" variant="white" color="dark">
              {texts.landing.packagesCta}
            </Button>
          </Group>
        </Stack>
      </Container>
    </Box>
  );
}

/** About ('Nosotros') and Misión: configured title, text and image; the text takes the whole width when the image is missing. */
export function TextSection({ name, id, title, text, image, reverse }: { name: string; id?: string; title: string; text: string; image: string; reverse?: boolean }) {
  const [failed, setFailed] = useState(false);
  const withImage = Boolean(image) && !failed;
  return (
    <LandingSection name={name} id={id} title={title} alt={reverse}>
      <Grid gap={textGrid.gap} align="center">
        <Grid.Col span={{ base: 12, md: withImage ? 6 : 12 }} order={{ base: 2, md: reverse ? 2 : 1 }}>
          <Text fz="lg" lh={1.7} maw={withImage ? undefined : 760} style={{ whiteSpace: 'pre-line' }}>
            {text}
          </Text>
        </Grid.Col>
        {withImage && (
          <Grid.Col span={{ base: 12, md: 6 }} order={{ base: 1, md: reverse ? 1 : 2 }}>
            <ResponsiveImage src={image} alt={title} sizes={gridSizes(textGrid.cols, textGrid.gap)} className={classes.sideImage} onError={() => setFailed(true)} />
          </Grid.Col>
        )}
      </Grid>
    </LandingSection>
  );
}

export function ClassTypesSection() {
  const list = trpc.classTypes.list.useQuery(undefined, { staleTime: 5 * 60_000 });
  const types = (list.data?.class_types ?? []).filter((t) => t.available);
  // A section without content (or whose list failed) is left out.
  if (list.isError || (list.isSuccess && types.length === 0)) return null;
  return (
    <LandingSection name="class_types" title={texts.landing.classTypes} alt>
      {!list.data ? (
        <GridSkeleton />
      ) : (
        <SimpleGrid cols={classTypeGrid.cols} spacing={classTypeGrid.spacing}>
          {types.map((type) => (
            <Card key={type.class_type_id} component={Link} to={`/class_type/${type.class_type_id}`} withBorder radius="lg" padding={0} className={classes.card}>
              <FallbackImage
                src={type.image}
                alt=""
                sizes={gridSizes(classTypeGrid.cols, classTypeGrid.spacing)}
                className={classes.typeImage}
                fallback={<div className={classes.typePlaceholder} />}
              />
              <Stack gap={6} p="lg">
                <Title order={3} fz="lg">
                  {type.name}
                </Title>
                {type.description && (
                  <Text size="sm" c="dimmed" lineClamp={3}>
                    {type.description}
                  </Text>
                )}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </LandingSection>
  );
}

export function CoachesSection() {
  const list = trpc.instructors.home.useQuery(undefined, { staleTime: 5 * 60_000 });
  const coaches = list.data?.instructors ?? [];
  // A section without content (or whose list failed) is left out.
  if (list.isError || (list.isSuccess && coaches.length === 0)) return null;
  return (
    <LandingSection name="coaches" title={texts.landing.coaches}>
      {!list.data ? (
        <GridSkeleton count={4} height={320} />
      ) : (
        <SimpleGrid cols={coachGrid.cols} spacing={coachGrid.spacing}>
          {coaches.map((coach) => (
            <Card key={coach.instructor_id} component={Link} to={`/coach/${coach.instructor_id}`} withBorder radius="lg" padding={0} className={classes.card}>
              <FallbackImage
                src={coach.file?.src}
                alt=""
                sizes={gridSizes(coachGrid.cols, coachGrid.spacing)}
                className={classes.coachPhoto}
                fallback={<div className={classes.coachInitials}>{initials(coach)}</div>}
              />
              <Stack gap={2} p="md">
                <Text fw={700}>{fullName(coach)}</Text>
                {coach.quote && (
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {coach.quote}
                  </Text>
                )}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </LandingSection>
  );
}

export function PackagesSection() {
  const list = trpc.packages.presencialesHome.useQuery(undefined, { staleTime: 60_000 });
  const packages = list.data?.class_packages ?? [];
  // A section without content (or whose list failed) is left out.
  if (list.isError || (list.isSuccess && packages.length === 0)) return null;
  return (
    <LandingSection name="packages" title={texts.landing.packages} alt>
      {!list.data ? <GridSkeleton /> : (
        <SimpleGrid cols={packageGrid.cols} spacing={packageGrid.spacing}>
          {packages.map((pkg) => (
            <PackageCard key={pkg.class_package_id} pkg={pkg} />
          ))}
        </SimpleGrid>
      )}
    </LandingSection>
  );
}

/** The latest announcements; /avisos lists them all. */
export function AnnouncementsSection({ limit = 3 }: { limit?: number }) {
  const list = trpc.announcements.list.useQuery(undefined, { staleTime: 60_000 });
  const items = (list.data?.announcements ?? []).filter((a) => a.available).slice(0, limit);
  // A section without content (or whose list failed) is left out.
  if (list.isError || (list.isSuccess && items.length === 0)) return null;
  return (
    <LandingSection name="announcements" title={texts.landing.announcements}>
      {!list.data ? (
        <GridSkeleton height={160} />
      ) : (
        <Stack gap="lg">
          <SimpleGrid {...cardGrid}>
            {items.map((item) => (
              <AnnouncementCard key={item.announcement_id} title={item.title} content={item.content} image={item.file?.src ?? null} />
            ))}
          </SimpleGrid>
          <Anchor component={Link} to="/avisos" fw={600}>
            {texts.landing.seeAllNotices}
          </Anchor>
        </Stack>
      )}
    </LandingSection>
  );
}

export function AnnouncementCard({ title, content, image }: { title: string; content: string; image: string | null }) {
  return (
    <Card withBorder radius="lg" padding="lg" h="100%">
      {image && (
        <Card.Section mb="md">
          <FallbackImage src={image} alt="" sizes={cardGridSizes} h={160} fit="cover" />
        </Card.Section>
      )}
      <Title order={3} fz="lg" mb="xs">
        {title}
      </Title>
      <SafeHtml html={content} />
    </Card>
  );
}

export function ScheduleSection() {
  return (
    <LandingSection name="schedule" title={texts.landing.schedule} alt needsApp>
      <ScheduleView />
    </LandingSection>
  );
}
