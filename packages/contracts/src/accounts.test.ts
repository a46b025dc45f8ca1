import { describe, expect, it } from 'vitest';
import {
  accountLimitBody,
  CREDENTIAL_MESSAGES,
  credentialValueIssue,
  digitsOnly,
  maskCredential,
  normalizeCredentialValue,
} from './accounts';
import { merchantPublicKeyBody, pemDisplayLines, PUBLIC_KEY_MESSAGE } from './merchants';

describe('credential values', () => {
  it('cards: 16–19 digits with a valid Luhn', () => {
    expect(credentialValueIssue('CARD', '4111111111111111')).toBeNull();
    expect(credentialValueIssue('CARD', '411111111111111')).toBe(CREDENTIAL_MESSAGES.cardLength);
    expect(credentialValueIssue('CARD', '4111111111111112')).toBe(CREDENTIAL_MESSAGES.cardLuhn);
    expect(normalizeCredentialValue('CARD', '4111 1111-1111 1111')).toBe('4111111111111111');
  });
  it("phones: '+' and 10–15 digits", () => {
    expect(credentialValueIssue('PHONE', '+79991234567')).toBeNull();
    expect(credentialValueIssue('PHONE', '79991234567')).toBe(CREDENTIAL_MESSAGES.phone);
    expect(credentialValueIssue('PHONE', '+123456789')).toBe(CREDENTIAL_MESSAGES.phone);
    expect(credentialValueIssue('PHONE', '+1234567890123456')).toBe(CREDENTIAL_MESSAGES.phone);
  });
  it('masks card numbers as first 6 + ****** + last 4', () => {
    expect(maskCredential('CARD', '8600123412341234')).toBe('860012******1234');
    expect(maskCredential('PHONE', '+79991234567')).toBe('+79991234567');
  });
});

describe('limits', () => {
  it('keeps only digits in the input; limit and priority at least 0', () => {
    expect(digitsOnly('1 000,50abc')).toBe('100050');
    expect(
      accountLimitBody.safeParse({ peopleAccountId: 1, limit: -1, priority: 0, checkUniqueAmount: false }).error
        ?.issues[0]?.message,
    ).toBe('Limit must be at least 0');
    expect(
      accountLimitBody.safeParse({ peopleAccountId: 1, limit: 0, priority: -1, checkUniqueAmount: false }).error
        ?.issues[0]?.message,
    ).toBe('Priority must be at least 0');
  });
});

describe('merchant public key', () => {
  const pem =
    '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n';
  it('is shown in three lines and must parse as a PEM key', () => {
    expect(pemDisplayLines(pem)).toEqual([
      '-----BEGIN PUBLIC KEY-----',
      'MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=',
      '-----END PUBLIC KEY-----',
    ]);
    expect(merchantPublicKeyBody.safeParse({ clientPublicKey: pem }).success).toBe(true);
    expect(merchantPublicKeyBody.safeParse({ clientPublicKey: 'junk' }).error?.issues[0]?.message).toBe(
      PUBLIC_KEY_MESSAGE,
    );
  });
});
