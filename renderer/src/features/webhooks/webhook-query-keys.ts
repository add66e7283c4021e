/** Cache key of the subscription list. */
export const WEBHOOKS = ['webhooks'] as const;
