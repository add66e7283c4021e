// Upload jobs: the queue the engine works through.
import { z } from 'zod';
import { id, method, noArgs } from './method';
import type { UploadJobView } from './types';

export const uploadsMethods = {
  'uploads:list': method<UploadJobView[]>()(noArgs),
  'uploads:pause': method<UploadJobView>()(z.object({ id }).strict()),
  'uploads:resume': method<UploadJobView>()(z.object({ id }).strict()),
  'uploads:cancel': method<UploadJobView>()(z.object({ id }).strict()),
  'uploads:retry': method<UploadJobView>()(z.object({ id }).strict()),
  'uploads:clear-finished': method<{ removed: number }>()(noArgs),
} as const;
