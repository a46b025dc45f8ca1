import { formatDateLong } from '@paydesk/contracts/dates';

/** The setup key as people type it into an app: groups of four ("JBSW Y3DP …"); apps ignore the spaces. */
export const groupSecret = (secret: string, size = 4) =>
  (secret.replace(/\s/g, '').match(new RegExp(`.{1,${size}}`, 'g')) ?? []).join(' ');

/** The text a user keeps their recovery codes in: what they are, for whom, and one code a line. */
export function recoveryCodesText(codes: readonly string[], username: string, at: Date): string {
  return [
    `Paydesk recovery codes for ${username}`,
    `Made ${formatDateLong(at)} UTC`,
    '',
    'Each code signs you in once when you cannot use your authenticator app.',
    'Making new codes stops these from working.',
    '',
    ...codes,
    '',
  ].join('\n');
}

export const recoveryCodesFileName = (username: string) =>
  `paydesk-recovery-codes-${username.replace(/[^A-Za-z0-9._-]/g, '_')}.txt`;

/** Few codes left: time to make new ones before the last is used. */
export const RECOVERY_CODES_LOW = 3;
