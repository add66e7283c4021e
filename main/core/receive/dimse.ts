// The one door to dcmjs-dimse (a CommonJS package): its classes, typed, and its logger silenced —
// its log lines may quote patient data; the listener writes its own, without any.
import dcmjsDimse from 'dcmjs-dimse';

export const { Scp, Dataset, constants, responses } = dcmjsDimse;
export type { association, requests, responses as responseTypes } from 'dcmjs-dimse';

dcmjsDimse.log.setLevel('silent');
