import { z } from 'zod';

export const faultSchema = z.object({
  target: z.enum(['storage', 'api']),
  mode: z.enum(['error500', 'reset', 'stall', 'expire']),
  count: z.number().int().min(1).max(100000).default(1),
  match: z.string().min(1).max(500).optional(),
});
export type Fault = z.infer<typeof faultSchema>;

/** Faults armed through the control API, consumed by the next matching requests. */
export class Faults {
  private armed: Fault[] = [];

  add(f: Fault): void {
    this.armed.push({ ...f });
  }

  list(): Fault[] {
    return this.armed.map((f) => ({ ...f }));
  }

  clear(): void {
    this.armed = [];
  }

  /** Takes one fault matching this request (method + path + query), if any is armed. */
  take(target: 'storage' | 'api', method: string, url: string): Fault | undefined {
    const subject = `${method} ${url}`;
    const i = this.armed.findIndex((f) => f.target === target && (!f.match || subject.includes(f.match)));
    if (i < 0) return undefined;
    const f = this.armed[i];
    if (!f) return undefined;
    f.count -= 1;
    if (f.count <= 0) this.armed.splice(i, 1);
    return { ...f, count: 1 };
  }
}
