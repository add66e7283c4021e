import type { ApiCtx, App } from '../core/app';
import type { Account, Exam } from '../core/state';
import { getExam } from '../exams/view';

/**
 * The exam named by the route's `:id` as the caller may see it: same account, same mode (sandbox keys
 * see only sandbox exams) and not deleted; anything else is 404, so foreign ids are not revealed.
 */
export function callerExam(app: App, ctx: ApiCtx): Exam {
  return getExam(app, ctx.auth, ctx.params['id'] ?? '');
}

/** An exam that still exists, whoever owns it (control API and public pages). */
export function liveExam(app: App, id: string): Exam | undefined {
  const s = app.store.state;
  if (s.deleted_exam_ids.includes(id)) return undefined;
  return s.exams.find((e) => e.id === id);
}

export function accountOf(app: App, exam: Exam): Account | undefined {
  return app.store.state.accounts.find((a) => a.id === exam.account_id);
}
