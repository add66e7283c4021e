// The network as Settings → Network configures it: the proxy's address and an extra certificate
// authority (CA) file. The proxy's user and password are kept in the keychain (secrets/), never
// here: an address carrying a login is refused.
import { z } from 'zod';

/** Why a proxy address cannot be used, or null when it can (http:// or https://, a host, no login, no path). */
export function proxyAddressProblem(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'not an address like http://proxy.clinic.local:3128';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http:// and https:// proxies are supported';
  if (url.hostname === '') return 'the address has no host';
  if (url.username !== '' || url.password !== '')
    return 'the user and password go in their own fields, not in the address';
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') return 'a proxy address has no path';
  return null;
}

export const proxyAddressSchema = z
  .string()
  .trim()
  .max(2048)
  .superRefine((v, ctx) => {
    const problem = proxyAddressProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const networkSettingsSchema = z.object({
  /** The proxy every connection to the service and to storage goes through; null: none set here. */
  proxy_url: proxyAddressSchema.nullable().default(null),
  /**
   * A PEM file of certificate authorities to trust besides the built-in ones (a TLS-inspecting
   * firewall's root); `SCANBRIDGE_CA_FILE` wins over it. Null: none set here.
   */
  ca_file: z.string().trim().min(1).max(4096).nullable().default(null),
});
export type NetworkSettings = z.infer<typeof networkSettingsSchema>;
