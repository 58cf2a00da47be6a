import type { ReactNode } from 'react';
import { Anchor, Box, Image, Paper, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { ResponsiveImage } from '../../ui/ResponsiveImage.tsx';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import classes from './AuthLayout.module.css';

/** The sign-in screens: the studio's bg_login photo behind a centered card with the logo (max 200px). */
export function AuthLayout({ heading, width = 440, children }: { heading: string; width?: number; children: ReactNode }) {
  const config = useAppConfig();
  usePageTitle(heading);
  return (
    <Box component="main" className={classes.root}>
      {/* The photo covers the whole screen: by its height on a screen narrower than 3:2 (a phone), else by its width (decision 049). */}
      {config.bg_login && <ResponsiveImage src={config.bg_login} alt="" sizes="(max-aspect-ratio: 3/2) 150vh, 100vw" priority="high" radius={0} className={classes.photo} />}
      <div className={classes.scrim} />
      <Paper className={classes.card} maw={width} w="100%" radius="lg" shadow="xl" p={{ base: 'lg', sm: 'xl' }}>
        <Stack gap="lg">
          <Anchor component={Link} to="/" className={classes.logoLink} aria-label={config.business_name}>
            {config.navbar_logo ? (
              <Image src={config.navbar_logo} alt={config.business_name} maw={200} mah={96} fit="contain" className={classes.logo} />
            ) : (
              <Title order={2}>{config.business_name}</Title>
            )}
          </Anchor>
          <Title order={1} ta="center" fz={{ base: 26, sm: 30 }}>
            {heading}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Box>
  );
}
