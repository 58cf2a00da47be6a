import { Alert, Badge, Button, FileInput, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileImport } from '@tabler/icons-react';
import { bookingImportFields, creditImportFields, customerImportFields, texts, toCsv } from '@estudio/core';
import { useState } from 'react';
import { errorText } from '../../format.ts';
import { api } from '../api.ts';

const t = texts.customerImport;
const outcomeColor = { new: 'teal', existing: 'blue', repeated: 'gray', refused: 'red' } as const;
/** Lines shown on screen; the rest are in the results file. */
const shownLines = 200;

type Kind = 'customers' | 'credits' | 'bookings';
type Outcome = keyof typeof outcomeColor;
type Columns = Partial<Record<string, number>>;
const fieldsOf: Record<Kind, readonly string[]> = { customers: customerImportFields, credits: creditImportFields, bookings: bookingImportFields };
const fieldLabel = (field: string) => (t.fields as Record<string, string>)[field] ?? (t.recordFields as Record<string, string>)[field] ?? field;

/** One line of any of the three files, as the screen and the results file show it. */
interface Line {
  line: number;
  outcome: Outcome;
  reasons: string[];
  customer_id: number | null;
  name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  detail?: string;
}
interface Result {
  header: string[];
  columns: Columns;
  counts: Record<Outcome, number>;
  lines: Line[];
}

const wording = (kind: Kind) =>
  kind === 'customers'
    ? { intro: t.intro, counts: t.counts, outcomes: t.outcomes, run: t.run, done: t.done }
    : {
        intro: t.intros[kind],
        counts: (c: Record<Outcome, number>) => t.recordCounts(kind, c),
        outcomes: t.recordOutcomes[kind],
        run: (n: number) => t.recordRun(kind, n),
        done: (n: number) => t.recordDone(kind, n),
      };

/** The results as a CSV the owner keeps: what each line became, and why. */
function resultsCsv(kind: Kind, result: Result): string {
  const outcomes = wording(kind).outcomes;
  const what = kind === 'customers' ? [] : [t.what];
  return toCsv(
    [t.line, t.outcome, t.why, 'ID', ...what, t.fields.name, t.fields.last_name, t.fields.email, t.fields.phone],
    result.lines.map((l) => [l.line, outcomes[l.outcome], l.reasons.join(' '), l.customer_id, ...(kind === 'customers' ? [] : [l.detail ?? '']), l.name, l.last_name, l.email, l.phone]),
  );
}

function download(kind: Kind, result: Result) {
  const url = URL.createObjectURL(new Blob([resultsCsv(kind, result)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `importacion-${kind === 'customers' ? 'clientes' : kind === 'credits' ? 'creditos' : 'reservaciones'}-resultados.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Importar clientes: the three files another system exports, in order (customers, then their credits and
 * memberships, then their future bookings): choose one, see what each line would do (columns remapped by hand),
 * then import.
 */
export function CustomerImportScreen() {
  const [kind, setKind] = useState<Kind>('customers');
  const [file, setFile] = useState<File | null>(null);
  const [csv, setCsv] = useState<string | null>(null);
  const [columns, setColumns] = useState<Columns | undefined>(undefined);
  const [plan, setPlan] = useState<Result | null>(null);
  const [done, setDone] = useState<Result | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const customers = api.customerImport.customers.useMutation();
  const credits = api.customerImport.credits.useMutation();
  const bookings = api.customerImport.bookings.useMutation();
  const pending = customers.isPending || credits.isPending || bookings.isPending;
  const words = wording(kind);

  const send = (which: Kind, input: { csv: string; dry_run: boolean; columns?: Columns | undefined }): Promise<Result> => {
    const body = { csv: input.csv, dry_run: input.dry_run, ...(input.columns ? { columns: input.columns } : {}) };
    if (which === 'credits') return credits.mutateAsync(body);
    if (which === 'bookings') return bookings.mutateAsync(body);
    return customers.mutateAsync(body);
  };

  const dryRun = async (which: Kind, text: string, mapping: Columns | undefined) => {
    setProblem(null);
    try {
      const result = await send(which, { csv: text, dry_run: true, columns: mapping });
      setPlan(result);
      setColumns(result.columns);
    } catch (e) {
      setPlan(null);
      setProblem(errorText(e));
    }
  };

  const reset = () => {
    setFile(null);
    setCsv(null);
    setPlan(null);
    setDone(null);
    setColumns(undefined);
    setProblem(null);
  };

  const choose = async (chosen: File | null) => {
    reset();
    setFile(chosen);
    if (!chosen) return;
    const text = await chosen.text();
    setCsv(text);
    await dryRun(kind, text, undefined);
  };

  const run = async () => {
    if (!csv || !plan) return;
    setProblem(null);
    try {
      const result = await send(kind, { csv, dry_run: false, columns });
      setDone(result);
      notifications.show({ color: 'teal', message: words.done(result.lines.filter((l) => l.outcome === 'new').length) });
    } catch (e) {
      setProblem(errorText(e));
    }
  };

  const shown = done ?? plan;
  return (
    <Stack gap="md" data-testid="customer-import">
      <SegmentedControl
        aria-label={t.kindsLabel}
        value={kind}
        onChange={(value) => {
          reset();
          setKind(value as Kind);
        }}
        data={(Object.keys(t.kinds) as Kind[]).map((k) => ({ value: k, label: t.kinds[k] }))}
        disabled={pending}
        fullWidth
        maw={640}
        data-testid="import-kind"
      />
      <Text size="sm" c="dimmed">
        {words.intro}
      </Text>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <FileInput
        label={t.file}
        placeholder={t.filePlaceholder}
        accept=".csv,text/csv"
        value={file}
        onChange={(chosen) => void choose(chosen)}
        leftSection={<IconFileImport size={16} />}
        clearable
        maw={480}
        disabled={pending}
      />
      {plan && !done && (
        <Paper withBorder p="md" radius="md">
          <Title order={4}>{t.columnsHeading}</Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t.columnsHint}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {fieldsOf[kind].map((field) => (
              <Select
                key={field}
                label={fieldLabel(field)}
                data={[{ value: '', label: t.noColumn }, ...plan.header.map((h, i) => ({ value: String(i), label: t.column(i, h) }))]}
                value={columns?.[field] === undefined ? '' : String(columns[field])}
                allowDeselect={false}
                onChange={(value) => {
                  const next: Columns = { ...columns };
                  if (value === null || value === '') delete next[field];
                  else next[field] = Number(value);
                  setColumns(next);
                  if (csv) void dryRun(kind, csv, next);
                }}
                disabled={pending}
              />
            ))}
          </SimpleGrid>
        </Paper>
      )}
      {shown && (
        <Stack gap="sm">
          <Text fw={600} data-testid="customer-import-counts">
            {words.counts(shown.counts)}
          </Text>
          <Table.ScrollContainer minWidth={640}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t.line}</Table.Th>
                  <Table.Th>{t.outcome}</Table.Th>
                  <Table.Th>{t.person}</Table.Th>
                  {kind !== 'customers' && <Table.Th>{t.what}</Table.Th>}
                  <Table.Th>{t.why}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.lines.slice(0, shownLines).map((l) => (
                  <Table.Tr key={l.line} data-testid="customer-import-line">
                    <Table.Td>{l.line}</Table.Td>
                    {/* Wide enough for 'Ya es cliente' whole when the table scrolls on a phone. */}
                    <Table.Td miw={140}>
                      <Badge color={outcomeColor[l.outcome]} variant="light">
                        {words.outcomes[l.outcome]}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {[l.name, l.last_name].filter(Boolean).join(' ')}
                      {(l.email || l.phone) && (
                        <Text size="xs" c="dimmed">
                          {l.email ?? l.phone}
                        </Text>
                      )}
                    </Table.Td>
                    {kind !== 'customers' && <Table.Td style={{ overflowWrap: 'anywhere' }}>{l.detail}</Table.Td>}
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{l.reasons.join(' ')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {shown.lines.length > shownLines && (
            <Text size="sm" c="dimmed">
              {t.more(shown.lines.length - shownLines)}
            </Text>
          )}
          <Group>
            {!done ? (
              <Button onClick={() => void run()} loading={pending} disabled={shown.counts.new === 0}>
                {words.run(shown.counts.new)}
              </Button>
            ) : (
              <Button variant="default" onClick={() => void choose(null)}>
                {t.again}
              </Button>
            )}
            <Button variant="light" onClick={() => download(kind, shown)}>
              {t.download}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
