import { Anchor, Box, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AppConfigMap } from '@estudio/core';
import { internalPath } from './links.ts';
import classes from './AccountLayout.module.css';

/** The configured announcement strip (banner_text, banner_link); callers check banner_enabled. */
export function Banner({
  config,
  hidden = false,
  inDrawer = false,
  onNavigate,
}: {
  config: AppConfigMap;
  hidden?: boolean;
  /** In the mobile drawer the strip becomes a card whose text wraps. */
  inDrawer?: boolean;
  onNavigate?: () => void;
}) {
  const text = config.banner_text.trim();
  if (!text) return null;
  const link = config.banner_link.trim();
  const path = link ? internalPath(link, config.domain) : null;
  const content = (
    <Text size="sm" fw={600} truncate={inDrawer ? undefined : 'end'} c="inherit">
      {text}
    </Text>
  );
  return (
    <Box className={inDrawer ? classes.drawerBanner : classes.banner} style={inDrawer ? undefined : { marginTop: hidden ? -32 : 0 }} aria-hidden={hidden || undefined}>
      {!link ? (
        content
      ) : path ? (
        <Anchor component={Link} to={path} c="inherit" underline="hover" onClick={onNavigate} tabIndex={hidden ? -1 : undefined}>
          {content}
        </Anchor>
      ) : (
        <Anchor href={link} target="_blank" rel="noopener noreferrer" c="inherit" underline="hover" tabIndex={hidden ? -1 : undefined}>
          {content}
        </Anchor>
      )}
    </Box>
  );
}
