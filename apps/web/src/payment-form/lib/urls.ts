/**
 * A merchant URL as a link target: one without a protocol is protocol-relative
 * ('example.com/x' → '//example.com/x'); empty means none.
 */
export function redirectHref(url: string | null | undefined): string | null {
  const u = url?.trim();
  if (!u) return null;
  if (/^[a-z][a-z\d+.-]*:/i.test(u) || u.startsWith('//') || u.startsWith('/')) return u;
  return `//${u}`;
}

/** The form id from the path /payment/:formId. */
export function formIdFromPath(pathname: string): string | null {
  const m = /^\/payment\/([^/?#]+)\/?$/.exec(pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}
