import { createContext } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Me } from '@paydesk/contracts/auth';

/** What a screen knows before its first render: the session, the merchant its calls are scoped to, the address. */
export type ScreenPrefetchContext = {
  queryClient: QueryClient;
  me: Me;
  /** the merchant of the screen's calls, as useCurrentMerchantId() will say */
  merchantId: string | null;
  pathname: string;
  search: URLSearchParams;
};

/**
 * A screen module may export `prefetch`: the calls its first render makes, asked for with the same query options
 * while the screen is still being built, so that their answers are on their way (or there) when it mounts.
 */
export type ScreenPrefetch = (ctx: ScreenPrefetchContext) => void;

/**
 * The app's prefetch of the screen at an address (app/router.tsx prefetchScreenData), handed down by the app's root
 * (main.tsx) to the signed-in layout's scope gate: the router loads that layout, so the layout importing the router
 * back would tie the two into an import cycle.
 */
export const ScreenDataPrefetch = createContext<ScreenPrefetch>(() => undefined);
