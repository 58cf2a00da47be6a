import { ActionIcon, Affix } from '@mantine/core';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { whatsappLink } from '../pages/account/links.ts';

/**
 * The floating WhatsApp button with the studio's configured number; the
 * public site dials 521, the account area 52 (spec). Absent without a number.
 */
export function WhatsAppButton({ number, prefix }: { number: string; prefix: '52' | '521' }) {
  const href = whatsappLink(number, prefix);
  if (!href) return null;
  return (
    // A labelled landmark of its own, it is not stray content. In the page rather than in a portal at the end of <body>:
    // a portal is the browser's alone, so the pre-rendered page (the landing, before or without its app: decision 054)
    // would have no way to write to the studio. The layouts place it outside their header, main and footer.
    <Affix position={{ bottom: 20, right: 20 }} zIndex={150} withinPortal={false} role="complementary" aria-label={texts.landing.whatsapp}>
      {/* The browser's title on hover, not a Tooltip: that would bring floating-ui (15 KiB) to every public page. */}
      <ActionIcon
        component="a"
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        size={56}
        radius="xl"
        color="#25d366"
        variant="filled"
        aria-label={texts.landing.whatsapp}
        title={texts.landing.whatsapp}
        style={{ boxShadow: '0 6px 18px rgba(0,0,0,.22)' }}
      >
        <IconBrandWhatsapp size={30} stroke={1.7} />
      </ActionIcon>
    </Affix>
  );
}
