import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy';

describe('password policy (NIST SP 800-63B)', () => {
  it('takes long passwords of any composition, spaces and Unicode included', () => {
    for (const ok of ['correct horse battery', 'tiger-lamp-okra-sun', 'все лошади едят овёс', 'zG4#pq!1Lm0_x']) {
      expect(passwordProblem(ok), ok).toBeNull();
    }
  });

  it('refuses fewer than 12 characters, counted as characters, not bytes', () => {
    expect(passwordProblem('12345678')).toMatch(/at least 12/);
    expect(passwordProblem('Tr0ub4dor&3')).toMatch(/at least 12/);
    expect(passwordProblem('ёёёёёёёёёёё')).toMatch(/at least 12/); // 11 letters, 22 bytes
    // 12 code points decomposed, 6 characters as the hash sees them (NFKC)
    expect(passwordProblem('áéíóúý'.normalize('NFD'))).toMatch(/at least 12/);
  });

  it('refuses common and leaked passwords, also with digits or symbols around them', () => {
    for (const bad of ['qwertyuiop123', 'password1234', 'Password2026!', '1qaz2wsx3edc4rfv', 'iloveyou!!!!']) {
      expect(passwordProblem(bad), bad).toMatch(/common or leaked/);
    }
  });

  it('refuses repeated and sequential patterns', () => {
    expect(passwordProblem('abcabcabcabc')).toMatch(/repeated/);
    expect(passwordProblem('aaaaaaaaaaaaaaa')).toMatch(/repeated/);
    expect(passwordProblem('123456789012')).toMatch(/sequences|common/);
    expect(passwordProblem('abcdefghijklm')).toMatch(/sequences/);
  });

  it('refuses passwords built from the user’s own name or the product name', () => {
    expect(passwordProblem('zarina.k-2026!', { username: 'zarina.k' })).toMatch(/name/);
    expect(passwordProblem('Abdullaev1990!', { username: 'ops1', lastName: 'Abdullaev' })).toMatch(/name/);
    expect(passwordProblem('Paydesk2026!!', {})).toMatch(/name/);
    expect(passwordProblem('zarina.k and a long tail of words', { username: 'zarina.k' })).toBeNull();
  });
});
