#pragma once
// The barrier protocols a NOW job can use (Brim & Miller 3.2): `barrier.kind` in a scenario.

namespace cosched::barrier {

// Root: every process registers with process 0, which sends the completion notices. AllToAll: every
// process tells every other one, and passes when it has heard from all.
enum class BarrierKind { Root, AllToAll };

}  // namespace cosched::barrier
