import { Badge, Button, Group, Input, PasswordInput, Text } from '@mantine/core';
import { words } from './words.ts';

const w = words.sending;

/** What the admin does with a write-only secret: leave it, type a new one, or remove it. */
export type SecretChange = { mode: 'keep' } | { mode: 'set'; value: string } | { mode: 'clear' };

/** The value to send for a secret, or undefined when it stays as stored ('' removes it). */
export function secretPayload(change: SecretChange): string | undefined {
  if (change.mode === 'clear') return '';
  if (change.mode === 'set' && change.value !== '') return change.value;
  return undefined;
}

/**
 * A password or token the server keeps and never answers back: when one is
 * stored the field says so ('Guardada') with Cambiar and Quitar, never showing
 * it; typing a new one replaces it on Guardar.
 */
export function SecretField({
  label,
  saved,
  savedText,
  change,
  onChange,
  error,
  testId,
}: {
  label: string;
  saved: boolean;
  savedText: string;
  change: SecretChange;
  onChange: (change: SecretChange) => void;
  error?: string | undefined;
  testId: string;
}) {
  if (saved && change.mode === 'keep') {
    return (
      <Input.Wrapper label={label} error={error} data-testid={testId}>
        <Group gap="xs" mt={4} wrap="wrap">
          <Badge color="teal" variant="light" tt="none" size="lg" radius="sm" data-testid={`${testId}-saved`}>
            {savedText}
          </Badge>
          <Button size="compact-sm" variant="light" onClick={() => onChange({ mode: 'set', value: '' })} aria-label={`${w.change} ${label.toLowerCase()}`}>
            {w.change}
          </Button>
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => onChange({ mode: 'clear' })} aria-label={`${w.clearSecret} ${label.toLowerCase()}`}>
            {w.clearSecret}
          </Button>
        </Group>
      </Input.Wrapper>
    );
  }
  if (change.mode === 'clear') {
    return (
      <Input.Wrapper label={label} error={error} data-testid={testId}>
        <Group gap="xs" mt={4} wrap="wrap">
          <Text size="sm" c="red">
            {w.secretClearHint}
          </Text>
          <Button size="compact-sm" variant="subtle" onClick={() => onChange({ mode: 'keep' })}>
            {w.cancelChange}
          </Button>
        </Group>
      </Input.Wrapper>
    );
  }
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap" data-testid={testId}>
      <PasswordInput
        label={label}
        description={w.secretNewHint}
        placeholder={saved ? '' : w.secretNone}
        autoComplete="new-password"
        value={change.mode === 'set' ? change.value : ''}
        onChange={(e) => onChange({ mode: 'set', value: e.currentTarget.value })}
        error={error}
        style={{ flex: 1, minWidth: 0 }}
      />
      {saved && (
        <Button variant="subtle" onClick={() => onChange({ mode: 'keep' })} mb={error ? 22 : 0}>
          {w.cancelChange}
        </Button>
      )}
    </Group>
  );
}
