import { Paper, Text, Textarea } from '@mantine/core';
import { texts } from '@estudio/core';

const t = texts.adminConsole;

/** A cancellation's message to one group (booked with a credit, with a membership, waiting), as they will read it. */
export function CancelMessage({
  message,
  testId,
  hint,
}: {
  message: { was: 'credit' | 'unlimited' | 'waitlist'; customers: number; subject: string; paragraphs: string[] };
  testId: string;
  /** A line under the group's name, e.g. that each message carries its own class's date. */
  hint?: string;
}) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId}>
      <Text size="xs" c="dimmed" fw={600}>
        {t.cancelMessageFor(message.was, message.customers)}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
      <Text size="sm" fw={600} mt={4}>
        {message.subject}
      </Text>
      {message.paragraphs.map((line) => (
        <Text key={line} size="sm" mt={4}>
          {line}
        </Text>
      ))}
    </Paper>
  );
}

/** The studio's note for the people a cancellation tells: one line in each message, up to 300 characters. */
export function CancelNoteField({ value, onChange, testId }: { value: string; onChange: (note: string) => void; testId: string }) {
  return (
    <Textarea
      label={t.cancelNoteLabel}
      description={t.cancelNoteHint}
      placeholder={t.cancelNotePlaceholder}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maxLength={300}
      autosize
      minRows={2}
      data-testid={testId}
    />
  );
}
