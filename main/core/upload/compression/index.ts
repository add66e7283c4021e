// upload/compression: whether and how a study is compressed. The choice between plain and deflated
// transfer (from a sample of the study and the measured link), the deflate workers shared by jobs,
// the deflated ZIP they write, and the link rates remembered between runs.
export { choiceWords, chooseTransport, worthSampling } from './compression-choice';
export type { ChoiceWhy } from './compression-choice';
export { deflateWorkerCount, holdDeflatePool, sharedDeflatePool } from './deflate-pool';
export { readLinkRates } from './link-rate';
