import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * Cross-site request forgery: a page on another site can make the browser send a request here, and the browser
 * adds the session cookie to it. SameSite=Strict keeps the cookie off such requests in today's browsers, but it is
 * one defence, and it does not hold for a sibling subdomain or an older browser. So a change made with the session
 * cookie must also prove that this site's own pages sent it: a browser says where a request comes from in `Origin`
 * (sent with every POST, PUT, PATCH and DELETE by current browsers, same-origin fetches included) and
 * `Sec-Fetch-Site`, and a page cannot set either.
 */

/** Methods that change nothing (RFC 9110 safe methods): never refused here. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isStateChanging = (method: string) => !SAFE_METHODS.has(method.toUpperCase());

const originOf = (url: string): string | null => {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
};

/**
 * The origins this server's own pages are served from: PUBLIC_URL's; outside production also the address the
 * request was sent to (scheme and Host, or a trusted proxy's X-Forwarded-Proto/-Host), so that the app works at any
 * address it is opened at in development (a VM, a LAN address, Vite's dev server proxying /api). A cross-site page
 * cannot make a browser send a foreign Origin with our Host and our cookie. In production only PUBLIC_URL counts,
 * never a request's Host header (loadConfig requires PUBLIC_URL there).
 */
export function ownOrigins(req: FastifyRequest, config: Pick<Config, 'publicUrl' | 'env'>): string[] {
  const origins: string[] = [];
  const configured = config.publicUrl ? originOf(config.publicUrl) : null;
  if (configured) origins.push(configured);
  if (config.env !== 'production' || !configured) {
    const requested = req.host ? originOf(`${req.protocol}://${req.host}`) : null;
    if (requested && requested !== configured) origins.push(requested);
  }
  return origins;
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Why a state-changing request must be refused as cross-site, or null when it may go on.
 * - `Sec-Fetch-Site`, when sent, must be `same-origin`;
 * - `Origin`, when sent, must be one of this server's own origins (a `Referer`, when sent, too);
 * - with neither, `requireProof` decides: a request made with the session cookie needs one of them (every browser
 *   that runs the back-office sends them on its writes); one made without it (signing in) has nothing to forge.
 */
export function crossSiteRefusal(
  req: FastifyRequest,
  config: Pick<Config, 'publicUrl' | 'env'>,
  requireProof: boolean,
): string | null {
  const fetchSite = header(req, 'sec-fetch-site')?.trim().toLowerCase();
  if (fetchSite !== undefined && fetchSite !== 'same-origin') {
    return "Request refused: it was sent by another site's page (Sec-Fetch-Site)";
  }
  const own = ownOrigins(req, config);
  const origin = header(req, 'origin');
  if (origin !== undefined) {
    const o = originOf(origin);
    if (!o || !own.includes(o)) return 'Request refused: it came from another origin';
  }
  const referer = header(req, 'referer');
  if (referer !== undefined) {
    const r = originOf(referer);
    if (!r || !own.includes(r)) return 'Request refused: it came from another origin (Referer)';
  }
  if (requireProof && origin === undefined && fetchSite === undefined) {
    return "Request refused: a change made with a session must come from this site's own pages (no Origin header)";
  }
  return null;
}
