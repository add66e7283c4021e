// upload/transfer: bytes on the wire. PUT with retries under a bandwidth limit shared by jobs
// (TokenBucket), reading a planned file for one attempt, and the stored ZIP streamed from disk.
export { TokenBucket } from './token-bucket';
