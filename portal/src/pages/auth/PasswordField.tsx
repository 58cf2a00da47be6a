import { useState } from 'react';
import { TextInput, UnstyledButton, type TextInputProps } from '@mantine/core';
import { credentialsInput, maxLengthOf, texts } from '@estudio/core';
import classes from './PasswordField.module.css';

const passwordMaxLength = maxLengthOf(credentialsInput.shape.password);

/** A password input with the spec's Mostrar/Ocultar text toggle, as long as the server takes. */
export function PasswordField(props: Omit<TextInputProps, 'type' | 'rightSection'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextInput
      maxLength={passwordMaxLength}
      {...props}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      rightSectionWidth={84}
      rightSectionPointerEvents="all"
      rightSection={
        <UnstyledButton type="button" className={classes.toggle} onClick={() => setVisible((v) => !v)} aria-pressed={visible}>
          {visible ? texts.auth.hidePassword : texts.auth.showPassword}
        </UnstyledButton>
      }
    />
  );
}
