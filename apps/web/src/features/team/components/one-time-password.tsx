import { Text } from '@mantine/core';
import { OneTimeSecret } from '../../../components/one-time-secret';
import type { UserWithPassword } from '../api/team-users';

/** The one-time password the server returned for a new or reset user, shown this once. */
export function OneTimePassword({ result }: { result: UserWithPassword }) {
  const { user, temporaryPassword } = result;
  return (
    <OneTimeSecret label="One-time password" value={temporaryPassword}>
      <Text size="sm">
        Give it to {user.firstName} {user.lastName} (username <b>{user.username}</b>). They must change it at first
        sign-in.
      </Text>
    </OneTimeSecret>
  );
}
