// api/endpoints: one module per part of API v1 (exams, account, activity, consent, implants,
// referrers, reports, support, templates, webhooks), each its calls and the zod schemas of their
// answers, on the transport of api/http.
export type { Account } from './account';
export type { ActivityEntry, Notification, NotificationList } from './activity';
export type { ExamFields, ExamType, UpdateExamRequest } from './exam-schemas';
export type { Ticket } from './support';
export type { Delivery, Webhook } from './webhooks';
