/**
 * The document's operations as a caller of this client writes them: the `timestamp` header that
 * every signed operation declares is set by the client when it signs (contract §5), so it is no
 * parameter to give.
 */
type WithoutTimestamp<Parameters> = Parameters extends { header: infer Header }
  ? Omit<Parameters, 'header'> &
      (keyof Omit<Header, 'timestamp'> extends never
        ? { header?: never }
        : { header: Omit<Header, 'timestamp'> })
  : Parameters;

type SignedOperation<Operation> = Operation extends { parameters: infer Parameters }
  ? Omit<Operation, 'parameters'> & { parameters: WithoutTimestamp<Parameters> }
  : Operation;

export type SignedPaths<Paths> = {
  [Path in keyof Paths]: { [Method in keyof Paths[Path]]: SignedOperation<Paths[Path][Method]> };
};
