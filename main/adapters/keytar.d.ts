// keytar's API as this app uses it, declared here rather than read from the package: keytar is an
// optional dependency (a native module `npm ci` leaves out where it cannot be built), and the
// type-check must pass on such a machine too. An ambient declaration is used before node_modules.
declare module 'keytar' {
  export function getPassword(service: string, account: string): Promise<string | null>;
  export function setPassword(service: string, account: string, password: string): Promise<void>;
  export function deletePassword(service: string, account: string): Promise<boolean>;
}
