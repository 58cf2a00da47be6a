import { Checkbox, FileInput, NumberInput, Select, TagsInput, Textarea, TextInput } from '@mantine/core';
import { fieldLabel, normalizePhone, texts, type ValidatableField } from '@estudio/core';

export interface RenderableField extends ValidatableField {
  options?: { label: string; value: string }[] | null;
}

interface DynamicFieldProps {
  field: RenderableField;
  value: unknown;
  error?: string;
  /** The server's limit for this field's text (from the core schema). */
  maxLength?: number;
  onChange: (value: unknown) => void;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/**
 * One field of a dynamic form, by the spec's types. Non-required fields carry
 * '(Opcional)' in their label; phone keeps digits only, 10 at most.
 */
export function DynamicField({ field, value, error, maxLength, onChange }: DynamicFieldProps) {
  const common = { label: fieldLabel(field), error, name: field.key, withAsterisk: false } as const;
  switch (field.type) {
    case 'textarea':
      return <Textarea {...common} maxLength={maxLength} autosize minRows={2} value={asText(value)} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'date':
    case 'time':
    case 'datetime-local':
      return <TextInput {...common} type={field.type} value={asText(value)} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'number':
      return <NumberInput {...common} min={0} value={typeof value === 'number' || typeof value === 'string' ? value : ''} onChange={(v) => onChange(v === '' ? null : v)} />;
    case 'phone':
      return (
        <TextInput
          {...common}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          description={texts.forms.phoneHint}
          value={asText(value)}
          onChange={(e) => onChange(normalizePhone(e.currentTarget.value))}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={field.options ?? []}
          value={value === null || value === undefined || value === '' ? null : String(value)}
          onChange={(v) => onChange(v)}
          clearable={!field.required}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'boolean':
      return <Checkbox label={common.label} error={error} name={field.key} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'creatable-select':
      return <TagsInput {...common} data={(field.options ?? []).map((o) => o.value)} value={Array.isArray(value) ? value.map(String) : []} onChange={(v) => onChange(v)} />;
    case 'file':
    case 'image':
      return (
        <FileInput
          {...common}
          accept={field.type === 'image' ? 'image/*' : undefined}
          value={value instanceof File ? value : null}
          placeholder={typeof value === 'string' && value ? value : undefined}
          onChange={(file) => onChange(file)}
          clearable
        />
      );
    case 'text':
    default:
      return <TextInput {...common} maxLength={maxLength} value={asText(value)} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}
