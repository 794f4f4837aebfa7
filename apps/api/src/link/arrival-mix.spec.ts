import { ArrivalMix } from './arrival-mix';

describe('ArrivalMix', () => {
  it('names the terminals whose latest requests mostly came through another replica', () => {
    const mix = new ArrivalMix();
    for (const routed of [true, true, false, true]) mix.arrived('SIM0000001', routed);
    for (const routed of [true, false, false, true]) mix.arrived('SIM0000002', routed);
    for (const routed of [true, true, true]) mix.arrived('SIM0000003', routed);
    expect(mix.mostlyRouted()).toEqual(['SIM0000001']);
  });

  it('looks at the latest requests only, and forgets a terminal whose link opened again', () => {
    const mix = new ArrivalMix();
    for (const routed of [true, true, true, true, false, false]) mix.arrived('SIM0000001', routed);
    expect(mix.mostlyRouted()).toEqual([]);
    for (const routed of [true, true, true]) mix.arrived('SIM0000001', routed);
    expect(mix.mostlyRouted()).toEqual(['SIM0000001']);
    mix.forget('SIM0000001');
    expect(mix.mostlyRouted()).toEqual([]);
  });
});
