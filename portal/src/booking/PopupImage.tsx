import { useState } from 'react';
import { Anchor, Modal } from '@mantine/core';
import { Link } from 'react-router';
import { isOn, localDate, texts } from '@estudio/core';
import { useAppConfig } from '../config/AppConfigContext.tsx';
import { internalPath } from '../pages/account/links.ts';
import { useStudioTimeZone } from './time.ts';
import { cappedSizes } from '../ui/image-sources.ts';
import { ResponsiveImage } from '../ui/ResponsiveImage.tsx';

const STORAGE_KEY = 'estudio.popup-presencial';

function seenToday(key: string): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === key;
  } catch {
    return false;
  }
}

function rememberToday(key: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Without storage the popup simply shows again next visit.
  }
}

/**
 * Spec: the calendar's popup image, shown once per day when
 * single_class_enabled, popup_presencial_enabled and popup_presencial_src are
 * set, optionally linking out (popup_presencial_link). The day it was shown is
 * remembered in localStorage, with the image, so a new image shows the same day.
 */
export function PopupImage() {
  const config = useAppConfig();
  const tz = useStudioTimeZone();
  const src = config.popup_presencial_src.trim();
  const enabled = isOn(config.single_class_enabled) && isOn(config.popup_presencial_enabled) && src !== '';
  const key = `${localDate(new Date(), tz)}|${src}`;
  const [opened, setOpened] = useState(() => enabled && !seenToday(key));
  if (!enabled) return null;

  const close = () => {
    rememberToday(key);
    setOpened(false);
  };
  const link = config.popup_presencial_link.trim();
  const path = link ? internalPath(link, config.domain) : null;
  // The modal is 620 px wide (size lg) with 10 px of padding.
  const image = <ResponsiveImage src={src} alt={texts.booking.popupAlt} sizes={cappedSizes(600)} priority="eager" radius="md" fit="contain" mah="75dvh" />;

  return (
    <Modal opened={opened} onClose={close} size="lg" centered padding="xs" withCloseButton title={null} closeButtonProps={{ 'aria-label': texts.shell.close }}>
      {!link ? (
        image
      ) : path ? (
        <Anchor component={Link} to={path} onClick={close} display="block">
          {image}
        </Anchor>
      ) : (
        <Anchor href={link} target="_blank" rel="noopener noreferrer" onClick={close} display="block">
          {image}
        </Anchor>
      )}
    </Modal>
  );
}
