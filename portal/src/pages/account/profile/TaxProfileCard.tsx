import { useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFileInvoice, IconPencil } from '@tabler/icons-react';
import { cfdiUses, mxTexts, normalizeRfc, regimeOf, rfcKind, studioCfdiUseCodes, taxRegimes, texts, type TaxProfileBody } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { showSuccess } from '../../../ui/alerts.ts';
import { useFormErrors } from '../../../ui/form-errors.ts';

const t = mxTexts.taxProfile;
type Key = 'rfc' | 'legal_name' | 'tax_regime' | 'cfdi_use' | 'postcode' | 'email';
const labels: Record<Key, string> = { rfc: t.rfc, legal_name: t.legalName, tax_regime: t.regime, cfdi_use: t.use, postcode: t.postcode, email: t.email };
const empty: Record<Key, string> = { rfc: '', legal_name: '', tax_regime: '', cfdi_use: 'G03', postcode: '', email: '' };

/**
 * Datos fiscales (decision 084): what a CFDI to the customer needs, as her
 * Constancia de Situación Fiscal says it. The regime and the CFDI use are the
 * SAT's catalogues, narrowed to the persona her RFC says (13 characters: a
 * person; 12: a company) and to the uses her regime may take; the server
 * checks the same rule (core's taxProfileProblem) and says any refusal under
 * its field, in Spanish.
 */
export function TaxProfileCard() {
  const utils = trpc.useUtils();
  const profile = trpc.cfdi.taxProfile.useQuery(undefined, { staleTime: 60_000 });
  const current = profile.data?.tax_profile ?? null;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(empty);
  const { errors, failFromServer, clear, reset } = useFormErrors(labels);
  const save = trpc.cfdi.saveTaxProfile.useMutation({
    onSuccess: (answer) => {
      utils.cfdi.taxProfile.setData(undefined, answer);
      void utils.purchases.list.invalidate();
      showSuccess(t.saved);
      setEditing(false);
    },
    onError: failFromServer,
  });
  const remove = trpc.cfdi.deleteTaxProfile.useMutation({
    onSuccess: (answer) => {
      utils.cfdi.taxProfile.setData(undefined, answer);
      showSuccess(t.removed);
    },
  });

  const kind = rfcKind(normalizeRfc(draft.rfc));
  const regimes = useMemo(
    () => taxRegimes.filter((r) => (kind ? r[kind] : true)).map((r) => ({ value: r.code, label: `${r.code} · ${r.label}` })),
    [kind],
  );
  const uses = useMemo(
    () =>
      cfdiUses
        .filter((u) => (studioCfdiUseCodes as readonly string[]).includes(u.code))
        .filter((u) => (kind ? u[kind] : true) && (!draft.tax_regime || u.regimes.includes(draft.tax_regime)))
        .map((u) => ({ value: u.code, label: `${u.code} · ${u.label}` })),
    [kind, draft.tax_regime],
  );
  const set = (key: Key, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    clear(key);
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} id="datos-fiscales" data-testid="tax-profile">
      <Group justify="space-between" mb="xs">
        <Title order={2} fz="xl">
          {t.title}
        </Title>
        {!editing && profile.data && (
          <Button
            variant="light"
            leftSection={<IconPencil size={16} />}
            onClick={() => {
              setDraft(current ? { ...current, email: current.email ?? '' } : empty);
              reset();
              setEditing(true);
            }}
          >
            {current ? t.edit : t.add}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {t.intro}
      </Text>
      {!profile.data ? (
        <Skeleton h={60} />
      ) : editing ? (
        <Stack
          gap="sm"
          component="form"
          aria-label={t.title}
          onSubmit={(e) => {
            e.preventDefault();
            const body: TaxProfileBody = { ...draft, email: draft.email.trim() || null };
            save.mutate(body);
          }}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              name="rfc"
              label={t.rfc}
              value={draft.rfc}
              maxLength={13}
              autoCapitalize="characters"
              error={errors.rfc}
              description={kind ? t.persona(kind) : undefined}
              onChange={(e) => set('rfc', e.currentTarget.value.toUpperCase())}
            />
            <TextInput name="postcode" label={t.postcode} value={draft.postcode} maxLength={5} inputMode="numeric" error={errors.postcode} onChange={(e) => set('postcode', e.currentTarget.value.replace(/\D/g, ''))} />
            <TextInput name="legal_name" label={t.legalName} description={t.legalNameHint} value={draft.legal_name} maxLength={254} error={errors.legal_name} onChange={(e) => set('legal_name', e.currentTarget.value)} style={{ gridColumn: '1 / -1' }} />
            <Select
              name="tax_regime"
              label={t.regime}
              data={regimes}
              value={draft.tax_regime || null}
              searchable
              error={errors.tax_regime}
              onChange={(v) => {
                set('tax_regime', v ?? '');
                // A use the new regime cannot take gives way to the first one it can.
                const ok = cfdiUses.find((u) => u.code === draft.cfdi_use)?.regimes.includes(v ?? '');
                if (v && !ok) set('cfdi_use', cfdiUses.find((u) => (studioCfdiUseCodes as readonly string[]).includes(u.code) && u.regimes.includes(v))?.code ?? '');
              }}
              comboboxProps={{ withinPortal: true }}
            />
            <Select name="cfdi_use" label={t.use} data={uses} value={draft.cfdi_use || null} error={errors.cfdi_use} onChange={(v) => set('cfdi_use', v ?? '')} />
            <TextInput name="email" type="email" label={t.email} description={t.emailHint} value={draft.email} error={errors.email} onChange={(e) => set('email', e.currentTarget.value)} style={{ gridColumn: '1 / -1' }} />
          </SimpleGrid>
          <Group justify="space-between" mt="sm">
            {current ? (
              <Button variant="subtle" color="red" onClick={() => { setEditing(false); remove.mutate(); }} disabled={save.isPending}>
                {t.remove}
              </Button>
            ) : (
              <span />
            )}
            <Group>
              <Button variant="default" onClick={() => setEditing(false)} disabled={save.isPending}>
                {texts.profile.cancel}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {texts.profile.save}
              </Button>
            </Group>
          </Group>
        </Stack>
      ) : current ? (
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <IconFileInvoice size={20} stroke={1.6} style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={2}>
            <Group gap="xs">
              <Text fw={600}>{current.legal_name}</Text>
              <Badge variant="light" size="sm">
                {t.persona(current.persona)}
              </Badge>
            </Group>
            <Text size="sm">
              {t.rfc} {current.rfc} · CP {current.postcode}
            </Text>
            <Text size="sm" c="dimmed">
              {regimeOf(current.tax_regime)?.label ?? current.tax_regime} · {cfdiUses.find((u) => u.code === current.cfdi_use)?.label ?? current.cfdi_use}
            </Text>
            {current.email && <Text size="sm" c="dimmed">{current.email}</Text>}
          </Stack>
        </Group>
      ) : (
        <Text c="dimmed">{t.empty}</Text>
      )}
    </Paper>
  );
}
