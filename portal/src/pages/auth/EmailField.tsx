import { TextInput, type TextInputProps } from '@mantine/core';
import { email, maxLengthOf, texts } from '@estudio/core';

const emailMaxLength = maxLengthOf(email);

/** The e-mail input of every sign-in form: the right keyboard on phones, autofill, no autocorrect, the server's length. */
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
      maxLength={emailMaxLength}
      {...props}
      type="email"
    />
  );
}
