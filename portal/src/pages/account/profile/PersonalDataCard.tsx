import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { texts, type PersonalDataFormat, type PersonalDataOutput } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { showError, showSuccess } from '../../../ui/alerts.ts';

const t = texts.personalData;

/** Saves the file the server made: the browser's own download, named as the server named it. */
function save(file: PersonalDataOutput): void {
  const bytes = file.encoding === 'base64' ? Uint8Array.from(atob(file.content), (c) => c.charCodeAt(0)) : file.content;
  const url = URL.createObjectURL(new Blob([bytes], { type: file.content_type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Mi Información › Tus datos: a copy of everything the studio keeps about her, as JSON or as CSV files (the law's right of access). */
export function PersonalDataCard() {
  const utils = trpc.useUtils();
  const studio = useAppConfig().business_name;
  const [busy, setBusy] = useState<PersonalDataFormat | null>(null);
  const download = async (format: PersonalDataFormat) => {
    setBusy(format);
    try {
      // Never cached: each click is today's copy.
      save(await utils.privacy.personalData.fetch({ format }, { staleTime: 0, gcTime: 0 }));
      showSuccess(t.downloaded);
    } catch (failure) {
      showError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="datos-heading">
      <Title order={2} fz="xl" mb="xs" id="datos-heading">
        {t.heading}
      </Title>
      <Text size="sm" c="dimmed" mb="lg">
        {t.intro(studio)}
      </Text>
      <Group align="flex-start" gap="lg">
        <Stack gap={4}>
          <Button variant="light" leftSection={<IconDownload size={16} />} loading={busy === 'csv'} disabled={busy !== null} onClick={() => void download('csv')}>
            {t.csv}
          </Button>
          <Text size="xs" c="dimmed">
            {t.csvHint}
          </Text>
        </Stack>
        <Stack gap={4}>
          <Button variant="default" leftSection={<IconDownload size={16} />} loading={busy === 'json'} disabled={busy !== null} onClick={() => void download('json')}>
            {t.json}
          </Button>
          <Text size="xs" c="dimmed">
            {t.jsonHint}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
