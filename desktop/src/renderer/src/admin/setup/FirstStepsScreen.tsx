import { Alert, Badge, Button, Card, Group, List, Modal, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconClock, IconCreditCard, IconPlayerSkipForward, IconRocket, IconWorld } from '@tabler/icons-react';
import { studioSetupTexts, type SetupStepKey } from '@estudio/core';
import { useState } from 'react';
import { errorText } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { Loaded } from '../list-widgets.tsx';
import { adminSections, type AdminSectionKey } from '../sections.ts';
import { settingsTabs, type SettingsTabKey } from '../settings/fields.ts';

const t = studioSetupTexts.console;
type Setup = ApiOutputs['setup']['status'];
type Step = Setup['steps'][number];

/** Where each step is done: a section of the console and, in Configuración, its tab. */
const targets: Record<SetupStepKey, { section: AdminSectionKey; tab?: SettingsTabKey }> = {
  identity: { section: 'settings', tab: 'marca' },
  timezone: { section: 'settings', tab: 'reservas' },
  locations: { section: 'locations' },
  classTypes: { section: 'classTypes' },
  coaches: { section: 'instructors' },
  packages: { section: 'packages' },
  schedule: { section: 'schedule' },
  pages: { section: 'pages' },
  payments: { section: 'settings', tab: 'pagos' },
  messages: { section: 'settings', tab: 'notificaciones' },
};

function targetLabel(step: SetupStepKey): string {
  const { section, tab } = targets[step];
  const tabLabel = tab ? settingsTabs.find((s) => s.key === tab)?.label : undefined;
  return `${t.open} ${adminSections.find((s) => s.key === section)?.label ?? section}${tabLabel ? ` › ${tabLabel}` : ''}`;
}

/**
 * Primeros pasos (decision 129): the studio's first run as a checklist. Each
 * step says whether the data shows it done, opens the screen where it is
 * done, and can be left for later; publishing opens the portal, which shows
 * "Próximamente" until then. The first screen an owner sees while her
 * studio is not published; reachable from the menu afterwards.
 */
export function FirstStepsScreen({ onOpen }: { onOpen: (section: AdminSectionKey, tab?: SettingsTabKey) => void }) {
  const setup = api.setup.status.useQuery();
  return <Loaded query={setup}>{() => setup.data && <Checklist setup={setup.data} onOpen={onOpen} />}</Loaded>;
}

function Checklist({ setup, onOpen }: { setup: Setup; onOpen: (section: AdminSectionKey, tab?: SettingsTabKey) => void }) {
  const utils = api.useUtils();
  const [confirming, setConfirming] = useState<'publish' | 'unpublish' | null>(null);
  const settle = (answer: Setup) => utils.setup.status.setData(undefined, answer);
  const skip = api.setup.skipStep.useMutation({ onSuccess: settle });
  const publish = api.setup.publish.useMutation({
    onSuccess: (answer) => {
      settle(answer);
      setConfirming(null);
      notifications.show({ color: 'teal', message: answer.published ? t.publishedNotice : t.unpublishedNotice });
    },
  });
  const skipped = setup.steps.filter((s) => s.skipped).length;
  const pending = setup.steps.filter((s) => !s.done);

  return (
    <Stack gap="md" data-testid="first-steps" data-published={setup.published}>
      <Text size="sm" c="dimmed">
        {t.intro}
      </Text>

      {setup.published ? (
        <Alert color="teal" variant="light" icon={<IconWorld size={20} />} title={t.publishedTitle} data-testid="studio-published">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t.publishedText}</Text>
            <Button size="xs" variant="default" onClick={() => setConfirming('unpublish')} data-testid="unpublish">
              {t.unpublish}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Card withBorder padding="md" data-testid="studio-unpublished">
          <Group justify="space-between" align="center" gap="md">
            <Group gap="sm" wrap="nowrap" align="flex-start" style={{ flex: '1 1 320px' }}>
              <ThemeIcon size={40} radius="xl" variant="light" color="grape">
                <IconRocket size={22} />
              </ThemeIcon>
              <div>
                <Text fw={600}>{t.unpublishedTitle}</Text>
                <Text size="sm" c="dimmed">
                  {t.unpublishedText}
                </Text>
              </div>
            </Group>
            <Button leftSection={<IconRocket size={18} />} onClick={() => setConfirming('publish')} data-testid="publish">
              {t.publish}
            </Button>
          </Group>
        </Card>
      )}

      <Card withBorder padding="md">
        <Stack gap={6}>
          <Group justify="space-between" gap="xs">
            <Text fw={600} data-testid="setup-progress">
              {t.progress(setup.done, setup.total)}
            </Text>
            {skipped > 0 && (
              <Badge color="gray" variant="light">
                {t.skippedCount(skipped)}
              </Badge>
            )}
          </Group>
          <Progress value={(setup.done / setup.total) * 100} color="teal" size="md" radius="xl" aria-label={t.progress(setup.done, setup.total)} />
        </Stack>
      </Card>

      {skip.error ? <Alert color="red">{errorText(skip.error)}</Alert> : null}
      <Stack gap="sm" data-testid="setup-steps">
        {setup.steps.map((step, index) => (
          <StepRow
            key={step.key}
            step={step}
            number={index + 1}
            onOpen={() => onOpen(targets[step.key].section, targets[step.key].tab)}
            onSkip={(skipped) => skip.mutate({ step: step.key, skipped })}
            busy={skip.isPending && skip.variables?.step === step.key}
            onSettled={settle}
          />
        ))}
      </Stack>

      <Modal opened={confirming === 'publish'} onClose={() => setConfirming(null)} title={t.confirmTitle} centered size="md">
        <Stack gap="sm" data-testid="publish-confirm">
          <Text size="sm">{t.confirmText}</Text>
          {pending.length ? (
            <Alert color="yellow" variant="light" title={t.confirmPending(pending.length)}>
              <List size="sm" spacing={2}>
                {pending.map((s) => (
                  <List.Item key={s.key}>
                    {s.title}
                    {s.skipped ? ` (${t.stateSkipped.toLowerCase()})` : ''}
                  </List.Item>
                ))}
              </List>
            </Alert>
          ) : (
            <Alert color="teal" variant="light" icon={<IconCheck size={18} />}>
              {t.confirmAllDone}
            </Alert>
          )}
          {publish.error ? <Alert color="red">{errorText(publish.error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t.cancel}
            </Button>
            <Button leftSection={<IconRocket size={18} />} loading={publish.isPending} onClick={() => publish.mutate({ published: true })} data-testid="publish-confirm-button">
              {t.confirmPublish}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={confirming === 'unpublish'} onClose={() => setConfirming(null)} title={t.unpublishTitle} centered size="md">
        <Stack gap="sm" data-testid="unpublish-confirm">
          <Text size="sm">{t.unpublishText}</Text>
          {publish.error ? <Alert color="red">{errorText(publish.error)}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t.cancel}
            </Button>
            <Button color="red" loading={publish.isPending} onClick={() => publish.mutate({ published: false })} data-testid="unpublish-confirm-button">
              {t.confirmUnpublish}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function StepIcon({ step, number }: { step: Step; number: number }) {
  if (step.done) {
    return (
      <ThemeIcon size={32} radius="xl" color="teal" aria-hidden>
        <IconCheck size={18} />
      </ThemeIcon>
    );
  }
  if (step.skipped) {
    return (
      <ThemeIcon size={32} radius="xl" color="gray" variant="light" aria-hidden>
        <IconPlayerSkipForward size={16} />
      </ThemeIcon>
    );
  }
  return (
    <ThemeIcon size={32} radius="xl" color="gray" variant="outline" aria-hidden>
      <Text size="sm" fw={700}>
        {number}
      </Text>
    </ThemeIcon>
  );
}

function StepRow({
  step,
  number,
  onOpen,
  onSkip,
  busy,
  onSettled,
}: {
  step: Step;
  number: number;
  onOpen: () => void;
  onSkip: (skipped: boolean) => void;
  busy: boolean;
  onSettled: (answer: Setup) => void;
}) {
  const state = step.done ? 'done' : step.skipped ? 'skipped' : 'pending';
  const badge = { done: { color: 'teal', text: t.stateDone }, skipped: { color: 'gray', text: t.stateSkipped }, pending: { color: 'yellow', text: t.statePending } }[state];
  return (
    <Card withBorder padding="sm" data-testid={`setup-step-${step.key}`} data-state={state} style={step.done ? { background: 'var(--mantine-color-gray-0)' } : undefined}>
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start" style={{ flex: '1 1 300px', minWidth: 0 }}>
          <StepIcon step={step} number={number} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Title order={4} fz="md">
                {step.title}
              </Title>
              <Badge size="sm" variant="light" color={badge.color} data-testid={`setup-step-${step.key}-state`}>
                {badge.text}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {step.hint}
            </Text>
            {step.detail && (
              <Text size="sm" data-testid={`setup-step-${step.key}-detail`}>
                {step.detail}
              </Text>
            )}
          </Stack>
        </Group>
        {/* Beside the step on a wide screen (the row's space-between), under it on a phone, starting where the text starts. */}
        <Group gap="xs" justify="flex-start">
          {step.action === 'confirmTimezone' && <ConfirmZone onSettled={onSettled} />}
          {step.action === 'addPaymentMethods' && <AddPaymentMethods onSettled={onSettled} />}
          {step.action === 'createDocumentTemplates' && <CreateDocumentTemplates onSettled={onSettled} />}
          {step.key === 'payments' && <CheckCardPayments />}
          <Button size="xs" variant={step.done ? 'default' : 'light'} onClick={onOpen} data-testid={`setup-step-${step.key}-open`}>
            {targetLabel(step.key)}
          </Button>
          {!step.done && (
            <Button
              size="xs"
              variant="subtle"
              color="gray"
              leftSection={step.skipped ? <IconClock size={14} /> : <IconPlayerSkipForward size={14} />}
              loading={busy}
              onClick={() => onSkip(!step.skipped)}
              data-testid={`setup-step-${step.key}-skip`}
            >
              {step.skipped ? t.unskip : t.skip}
            </Button>
          )}
        </Group>
      </Group>
    </Card>
  );
}

/** Confirms the zone in effect as the studio's (PUT /api/appconfig, audited as any setting). */
function ConfirmZone({ onSettled }: { onSettled: (answer: Setup) => void }) {
  const utils = api.useUtils();
  const config = api.appconfig.get.useQuery();
  const zone = config.data?.config.find((e) => e.key === 'timezone')?.value || 'America/Mexico_City';
  const save = api.appconfig.update.useMutation({
    onSuccess: async () => onSettled(await utils.setup.status.fetch()),
    onError: (error) => notifications.show({ color: 'red', message: errorText(error) }),
  });
  return (
    <Button size="xs" variant="light" color="teal" disabled={!config.data} loading={save.isPending} onClick={() => save.mutate({ config: [{ key: 'timezone', value: zone }] })} data-testid="setup-confirm-zone">
      {t.confirmZone(zone)}
    </Button>
  );
}

/** The terms and the privacy notice from their templates, required at once, for the owner to complete in Páginas. */
function CreateDocumentTemplates({ onSettled }: { onSettled: (answer: Setup) => void }) {
  const create = api.setup.documentTemplates.useMutation({
    onSuccess: (answer) => {
      notifications.show({ color: 'teal', message: t.documentTemplatesCreated });
      onSettled(answer);
    },
    onError: (error) => notifications.show({ color: 'red', message: errorText(error) }),
  });
  return (
    <Button size="xs" variant="light" color="teal" loading={create.isPending} onClick={() => create.mutate({})} data-testid="setup-create-document-templates">
      {t.createDocumentTemplates}
    </Button>
  );
}

/**
 * Asks Stripe what the server's key can do (decision 132) and shows, line by line, what is ready and what to fix
 * before real money comes in. It changes nothing, so it can be pressed any time.
 */
function CheckCardPayments() {
  const c = studioSetupTexts.cardCheck;
  const [result, setResult] = useState<ApiOutputs['setup']['checkCardPayments'] | null>(null);
  const check = api.setup.checkCardPayments.useMutation({
    onSuccess: setResult,
    onError: (error) => notifications.show({ color: 'red', message: errorText(error) }),
  });
  return (
    <>
      <Button size="xs" variant="light" leftSection={<IconCreditCard size={14} />} loading={check.isPending} onClick={() => check.mutate({})} data-testid="setup-check-card-payments">
        {c.button}
      </Button>
      <Modal opened={result !== null} onClose={() => setResult(null)} title={c.title} data-testid="card-payments-check">
        {result && (
          <Stack gap="sm">
            <Text fw={600} c={result.ready ? 'teal.8' : undefined}>
              {result.ready ? c.ready : c.notReady}
            </Text>
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {result.lines.map((line) => (
                <Group key={line.text} component="li" gap="sm" wrap="nowrap" align="flex-start" data-ok={line.ok}>
                  <ThemeIcon size={22} radius="xl" color={line.ok ? 'teal' : 'yellow'} variant="light" style={{ flex: 'none' }}>
                    {line.ok ? <IconCheck size={14} /> : <IconAlertTriangle size={14} />}
                  </ThemeIcon>
                  <Text size="sm" lh={1.5}>
                    {line.text}
                  </Text>
                </Group>
              ))}
            </Stack>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setResult(null)}>
                {t.close}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

/** A new studio's checkout offers nothing until it has its ways to pay: card (Stripe or its test mode) and cash. */
function AddPaymentMethods({ onSettled }: { onSettled: (answer: Setup) => void }) {
  const utils = api.useUtils();
  const create = api.paymentMethods.create.useMutation();
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setBusy(true);
    try {
      await create.mutateAsync({ name: 'Tarjeta', description: 'Tarjeta de crédito o débito', provider: 'card' });
      await create.mutateAsync({ name: 'Efectivo', description: 'Paga en recepción o por transferencia bancaria', provider: 'cash' });
      notifications.show({ color: 'teal', message: t.paymentMethodsAdded });
      onSettled(await utils.setup.status.fetch());
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="xs" variant="light" color="teal" loading={busy} onClick={() => void add()} data-testid="setup-add-payment-methods">
      {t.addPaymentMethods}
    </Button>
  );
}
