// Settings: schema, migrations and the store on disk.
export * from './legacy-preferences';
export * from './migrations';
export * from './network-settings';
export * from './config-dir';
export * from './settings-schema';
export * from './settings-damage';
export * from './store';
