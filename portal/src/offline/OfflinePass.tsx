import { useEffect, useState } from 'react';
import { Alert, Button, Center, Container, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { formatAccessCode, formatDateTime, texts } from '@estudio/core';
import { trpc } from '../api/trpc.ts';
import { useAppConfig } from '../config/AppConfigContext.tsx';
import { useStudioTimeZone } from '../booking/time.ts';
import { accessCodeUrl } from '../booking/access-code-url.ts';
import { readPasses, storedSessionUid, writePasses, type AccessPass, type KeptPasses } from './access-passes.ts';

/**
 * While the customer is signed in and online, her next classes' access codes
 * are kept on the phone (decision 106); Mis Reservaciones' upcoming list is
 * the query, shared with that page.
 */
export function useKeepAccessPasses(signedIn: boolean, online: boolean): void {
  const upcoming = trpc.reservations.mine.useQuery({ filter: 'upcoming', page: 1 }, { enabled: signedIn && online, staleTime: 60_000 });
  useEffect(() => {
    const uid = storedSessionUid();
    if (!uid || !upcoming.data) return;
    writePasses(
      uid,
      upcoming.data.class_reservations
        .filter((r) => r.single_class.cancelledAt === null)
        .map((r) => ({
          class_reservation_id: r.class_reservation_id,
          access_code: r.access_code,
          class_name: r.single_class.event_name ?? r.single_class.class_type.name,
          class_date: r.single_class.class_date,
          location: r.single_class.location.name,
          spot: r.spot,
          guest: r.guest,
          guest_spot: r.guest_spot,
        })),
    );
  }, [upcoming.data]);
}

/** The passes kept for the signed-in identity, read again when the connection changes. */
function useKeptPasses(online: boolean): KeptPasses | null {
  const [kept, setKept] = useState<KeptPasses | null>(null);
  useEffect(() => {
    const uid = storedSessionUid();
    setKept(uid ? readPasses(uid) : null);
  }, [online]);
  return kept;
}

function PassDetails({ pass, big }: { pass: AccessPass; big: boolean }) {
  const tz = useStudioTimeZone();
  const url = accessCodeUrl(pass.class_reservation_id, pass.access_code);
  return (
    <Stack gap={4} align={big ? 'center' : 'flex-start'} data-pass-id={pass.class_reservation_id}>
      <Text fw={700} fz={big ? 20 : 16} ta={big ? 'center' : undefined}>
        {pass.class_name}
      </Text>
      <Text size="sm" ta={big ? 'center' : undefined}>
        {formatDateTime(pass.class_date, tz)} · {pass.location}
      </Text>
      {(pass.spot != null || pass.guest) && (
        <Text size="sm" c="dimmed" ta={big ? 'center' : undefined}>
          {[pass.spot != null ? texts.offline.spot(pass.spot) : null, pass.guest ? texts.offline.guest(pass.guest, pass.guest_spot) : null].filter(Boolean).join(' · ')}
        </Text>
      )}
      {big && (
        <Center py="xs">
          <QRCodeSVG value={url} size={224} level="M" marginSize={2} role="img" aria-label={texts.reservations.accessCodeTitle} data-value={url} />
        </Center>
      )}
      <Text fz={big ? 28 : 18} fw={700} ff="monospace" lts={2} data-testid="offline-access-code">
        {formatAccessCode(pass.access_code)}
      </Text>
    </Stack>
  );
}

/** The kept passes: the next class with its QR, the others with their codes. */
export function OfflinePass({ online }: { online: boolean }) {
  const kept = useKeptPasses(online);
  const tz = useStudioTimeZone();
  const [next, ...later] = kept?.passes ?? [];
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-labelledby="offline-title" data-testid="offline-pass">
      <Stack gap="md">
        <Alert color="orange" variant="light" icon={<IconWifiOff size={20} />} title={<span id="offline-title">{texts.offline.title}</span>}>
          <Text size="sm">{next ? texts.offline.body : texts.offline.none}</Text>
          {kept && next && (
            <Text size="xs" c="dimmed" mt={4}>
              {texts.offline.savedAt(formatDateTime(kept.savedAt, tz))}
            </Text>
          )}
        </Alert>
        {next && (
          <>
            <Title order={2} fz={18} ta="center">
              {texts.offline.nextClass}
            </Title>
            <PassDetails pass={next} big />
            <Text size="sm" c="dimmed" ta="center">
              {texts.reservations.accessCodeText}
            </Text>
          </>
        )}
        {later.length > 0 && (
          <Stack gap="sm">
            <Title order={3} fz={16}>
              {texts.offline.later}
            </Title>
            {later.map((pass) => (
              <PassDetails key={pass.class_reservation_id} pass={pass} big={false} />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The account area opened with no connection (the installed app at the
 * studio's door): the studio's name and the kept passes, nothing that needs
 * the server. Back online, the page loads as usual.
 */
export function OfflineScreen() {
  const config = useAppConfig();
  return (
    <Container size="xs" py="lg">
      <Stack gap="lg">
        <Group justify="center" gap="sm">
          {config.navbar_logo && <Image src={config.navbar_logo} alt="" h={40} w="auto" fit="contain" />}
          <Text fw={700} fz={20}>
            {config.business_name}
          </Text>
        </Group>
        <OfflinePass online={false} />
        <Button variant="light" onClick={() => window.location.reload()}>
          {texts.offline.retry}
        </Button>
      </Stack>
    </Container>
  );
}
