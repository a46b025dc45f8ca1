import type { ComponentProps, Ref } from 'react';
import { TextInput } from '@mantine/core';

type Props = Omit<ComponentProps<typeof TextInput>, 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
  /** the app's 6-digit code only: a numeric keyboard and the browser's one-time-code autofill */
  numeric: boolean;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A code from the authenticator app or a recovery code (sign-in, turning two-factor sign-in on or off, new
 * recovery codes): monospaced, required, never spell-checked or capitalised.
 */
export function CodeInput({ numeric, onChange, ref, ...rest }: Props) {
  return (
    <TextInput
      ref={ref}
      withAsterisk
      size="md"
      spellCheck={false}
      autoCapitalize="none"
      maxLength={numeric ? 7 : 20}
      autoComplete={numeric ? 'one-time-code' : 'off'}
      inputMode={numeric ? 'numeric' : 'text'}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.1em' } }}
      onChange={(e) => onChange(e.currentTarget.value)}
      {...rest}
    />
  );
}
