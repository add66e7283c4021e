// Loaded with `node --import` by the end-to-end `no-module` keychain option: makes `keytar`
// unresolvable, exactly as on a machine where `npm ci` could not build it (an optional dependency).
import { register } from 'node:module';

const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === 'keytar') {
    const e = new Error("Cannot find package 'keytar' imported from " + context.parentURL);
    e.code = 'ERR_MODULE_NOT_FOUND';
    throw e;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
