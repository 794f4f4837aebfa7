/** How many of a terminal's latest requests are looked at. */
const WINDOW = 4;
/** Of those, how many came through another replica for the terminal to count as mostly routed. */
const ROUTED_OF_WINDOW = 3;

/**
 * For each terminal whose uplink this replica holds, whether its latest requests were asked here
 * or handed over by another replica (routing): a terminal whose requests mostly come routed is
 * linked to another replica than the one a balancer sends its requests to.
 */
export class ArrivalMix {
  private readonly latest = new Map<string, boolean[]>();

  arrived(serial: string, routed: boolean): void {
    const kinds = this.latest.get(serial) ?? [];
    kinds.push(routed);
    if (kinds.length > WINDOW) kinds.shift();
    this.latest.set(serial, kinds);
  }

  /** The terminal's link opened or closed here: what came before says nothing of the new one. */
  forget(serial: string): void {
    this.latest.delete(serial);
  }

  /** The terminals whose latest requests mostly came handed over by another replica. */
  mostlyRouted(): string[] {
    return [...this.latest]
      .filter(([, kinds]) => kinds.length === WINDOW && kinds.filter(Boolean).length >= ROUTED_OF_WINDOW)
      .map(([serial]) => serial);
  }
}
