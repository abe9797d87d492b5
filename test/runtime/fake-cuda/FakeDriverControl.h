//===- FakeDriverControl.h - The fake driver, seen from a test --*- C++ -*-===//

#ifndef TILERT_TEST_FAKEDRIVERCONTROL_H
#define TILERT_TEST_FAKEDRIVERCONTROL_H

#include "FakeCuda.h"

namespace tilert::test {

/// The fake driver's control functions (FakeCuda.h).
struct FakeDriver {
  decltype(&fakeCudaReset) reset;
  decltype(&fakeCudaSetParamCount) setParamCount;
  decltype(&fakeCudaCallCount) callCount;
  decltype(&fakeCudaTotalCalls) totalCalls;
  decltype(&fakeCudaLastLaunch) lastLaunch;
};

/// Opens the libcuda.so.1 libtilert will open and checks that it is the
/// fake (fails the test otherwise).
const FakeDriver &fakeDriver();

/// The fake driver's record of the last launch.
FakeCudaLaunch lastLaunch();

} // namespace tilert::test

#endif // TILERT_TEST_FAKEDRIVERCONTROL_H
