import { method, noArgs } from './method';

export type ReferrerView = { id: string; name: string; email: string | null; phone: string | null; specialty: string | null };
export type ReferrerList = { referrers: ReferrerView[]; sandbox: boolean };
export const directoryMethods = { 'referrers:list': method<ReferrerList>()(noArgs) } as const;
