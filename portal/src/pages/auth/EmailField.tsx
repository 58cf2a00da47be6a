import { TextInput, type TextInputProps } from '@mantine/core';
import { texts } from '@estudio/core';

/** The e-mail input of every sign-in form: the right keyboard on phones, autofill, no autocorrect. */
export function EmailField(props: Omit<TextInputProps, 'type'>) {
  return (
    <TextInput
      label={texts.forms.email}
      name="email"
      autoComplete="email"
      inputMode="email"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      {...props}
      type="email"
    />
  );
}
