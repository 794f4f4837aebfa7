import { STORES, type StoreKind } from '@tps/testing';

/** A money-path suite: `describe` once per store, the store's name in the title. */
export function describeOnStores(title: string, suite: (store: StoreKind) => void): void {
  for (const store of STORES) describe(`${title} [${store}]`, () => suite(store));
}
