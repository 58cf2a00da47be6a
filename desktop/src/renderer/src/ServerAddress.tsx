import { Alert, Button, Center, Group, Modal, NavLink, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlugConnected, IconServer } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { useState, type FormEvent } from 'react';
import { errorText } from './format.ts';
import { trpc } from './trpc.ts';

const t = texts.deskServer;

/**
 * The desk's first run (decision 019): the studio's server address, checked
 * by the desk service against the server before it is kept.
 */
export function FirstRunServer() {
  const utils = trpc.useUtils();
  const [url, setUrl] = useState('');
  const save = trpc.serverAddress.set.useMutation({
    onSuccess: async () => {
      await Promise.all([utils.serverAddress.get.invalidate(), utils.session.get.invalidate()]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ url });
  };
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={480} component="form" onSubmit={submit} data-testid="first-run">
        <Stack>
          <IconPlugConnected size={40} color="var(--mantine-color-teal-6)" aria-hidden />
          <Title order={2}>{t.heading}</Title>
          <Text c="dimmed" size="sm">
            {t.hint}
          </Text>
          {save.error && (
            <Alert color="red" role="alert">
              {errorText(save.error)}
            </Alert>
          )}
          <TextInput
            label={t.label}
            placeholder={t.placeholder}
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            required
            autoFocus
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
          />
          <Button type="submit" size="md" loading={save.isPending} leftSection={<IconServer size={18} />}>
            {t.save}
          </Button>
          {save.isPending && (
            <Text size="sm" c="dimmed" ta="center">
              {t.checking}
            </Text>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

/** 'Conectando a reservas.estudio.mx' under the sign-in form (and whether DESK_SERVER_URL fixed it). */
export function ConnectingTo() {
  const server = trpc.serverAddress.get.useQuery();
  if (!server.data?.host) return null;
  return (
    <Stack gap={2} align="center" data-testid="connecting-to">
      <Text size="sm" c="dimmed" ta="center">
        {t.connectingTo(server.data.host)}
      </Text>
      {server.data.fromEnv && (
        <Text size="xs" c="dimmed" ta="center">
          {t.fromEnv}
        </Text>
      )}
    </Stack>
  );
}

/** An admin's 'Cambiar servidor': another server is another studio, so the desk's data are wiped (refused while changes are unsent). */
export function ChangeServerButton() {
  const server = trpc.serverAddress.get.useQuery();
  const utils = trpc.useUtils();
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const save = trpc.serverAddress.set.useMutation({
    onSuccess: async () => {
      setOpen(false);
      await Promise.all([utils.serverAddress.get.invalidate(), utils.session.get.invalidate()]);
    },
  });
  if (!server.data || server.data.fromEnv) return null;
  const close = () => {
    setOpen(false);
    save.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ url });
  };
  return (
    <>
      <NavLink component="button" label={t.change} description={server.data.host} leftSection={<IconServer size={18} />} onClick={() => setOpen(true)} />
      <Modal opened={open} onClose={close} title={t.changeHeading} centered>
        <Stack component="form" onSubmit={submit}>
          {server.data.host && <Text size="sm">{t.connectingTo(server.data.host)}</Text>}
          <Alert color="orange" role="note">
            {t.changeWarning}
          </Alert>
          {save.error && (
            <Alert color="red" role="alert">
              {errorText(save.error)}
            </Alert>
          )}
          <TextInput label={t.label} placeholder={t.placeholder} inputMode="url" spellCheck={false} required value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t.cancel}
            </Button>
            <Button type="submit" color="red" loading={save.isPending}>
              {t.changeConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
