// Settings: schema, migrations and the store on disk.
export * from './legacy-preferences';
export * from './migrations';
export * from './paths';
export * from './schema';
export * from './store';
