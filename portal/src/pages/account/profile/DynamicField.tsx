import { useState } from 'react';
import { Checkbox, FileInput, NumberInput, Select, TagsInput, Textarea, TextInput } from '@mantine/core';
import { fieldLabel, normalizePhone, phonePrefixDropped, texts, type ValidatableField } from '@estudio/core';

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

/** '5544443333' → '55 4444 3333'. */
export const phoneGroups = (digits: string) => (digits.length === 10 ? `${digits.slice(0, 2)} ${digits.slice(2, 6)} ${digits.slice(6)}` : digits);

/**
 * A phone field: digits only, Mexico's +52 recognised (core's normalizePhone),
 * and when the typed number carried it, the field says what is kept.
 */
export function PhoneInput({
  common,
  value,
  onChange,
}: {
  common: { label: string; error?: string | undefined; name: string; withAsterisk: false };
  value: string;
  onChange: (value: string) => void;
}) {
  const [dropped, setDropped] = useState(false);
  return (
    <TextInput
      {...common}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      description={dropped && value.length === 10 ? texts.forms.phoneSavedAs(phoneGroups(value)) : texts.forms.phoneHint}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      value={value}
      onChange={(e) => {
        const typed = e.currentTarget.value;
        setDropped(phonePrefixDropped(typed) || (dropped && normalizePhone(typed).length === 10));
        onChange(normalizePhone(typed));
      }}
    />
  );
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
      return <PhoneInput common={common} value={asText(value)} onChange={onChange} />;
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
