import { useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Center } from '@mantine/core';
import { FullPageLoader } from '../../components/full-page-loader';
import { merchantsQuery } from '../../lib/merchant';
import { rememberedMerchantStore, scopedMerchantStore } from '../../lib/merchant-scope';
import { useStore } from '../../lib/persisted-store';
import { useCan, useCurrentUser } from '../../lib/session';

/**
 * Settles which merchant back-office calls are scoped to before any screen fetches (DESIGN §1):
 * for merchant.rw.all users the remembered choice if it still exists, else the first merchant;
 * for everyone else none (the server uses their own merchant).
 */
export function MerchantScopeGate({ children }: { children: ReactNode }) {
  // with a one-time password the merchant list is refused too: nothing to scope until a new password is set
  const me = useCurrentUser();
  const canPickMerchant = useCan('merchant.rw.all') && !me.mustChangePassword;
  const merchants = useQuery({ ...merchantsQuery, enabled: canPickMerchant });
  const remembered = useStore(rememberedMerchantStore);
  const scoped = useStore(scopedMerchantStore);

  const list = merchants.data?.data;
  const wanted = !canPickMerchant
    ? null
    : list
      ? (list.find((m) => m.id === remembered)?.id ?? list[0]?.id ?? null)
      : undefined; // still loading

  useEffect(() => {
    if (wanted !== undefined && scoped !== wanted) scopedMerchantStore.set(wanted);
  }, [wanted, scoped]);

  if (canPickMerchant && merchants.isError) {
    return (
      <Center h="100dvh" p="md">
        <Alert color="red" title="Could not load the merchants">
          {merchants.error.message}
          <Button mt="md" size="xs" onClick={() => void merchants.refetch()}>
            Try again
          </Button>
        </Alert>
      </Center>
    );
  }
  if (wanted === undefined || scoped !== wanted) return <FullPageLoader label="Loading merchants" />;
  return children;
}
