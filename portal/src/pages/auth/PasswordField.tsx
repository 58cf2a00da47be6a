import { useState } from 'react';
import { TextInput, UnstyledButton, type TextInputProps } from '@mantine/core';
import { texts } from '@estudio/core';
import classes from './PasswordField.module.css';

/** A password input with the spec's Mostrar/Ocultar text toggle. */
export function PasswordField(props: Omit<TextInputProps, 'type' | 'rightSection'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextInput
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
