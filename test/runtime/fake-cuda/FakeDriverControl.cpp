//===- FakeDriverControl.cpp - The fake driver, seen from a test ----------===//

#include "FakeDriverControl.h"

#include <catch2/catch.hpp>

#include <dlfcn.h>

namespace tilert::test {

const FakeDriver &fakeDriver() {
  static FakeDriver Driver = [] {
    FakeDriver Result{};
    void *Library = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!Library)
      FAIL("cannot open libcuda.so.1: " << ::dlerror());
    auto Find = [&](const char *Name) {
      void *Symbol = ::dlsym(Library, Name);
      if (!Symbol)
        FAIL("libcuda.so.1 is not the fake driver (no "
             << Name << "): run with LD_LIBRARY_PATH naming its directory");
      return Symbol;
    };
    Result.reset =
        reinterpret_cast<decltype(Result.reset)>(Find("fakeCudaReset"));
    Result.setParamCount = reinterpret_cast<decltype(Result.setParamCount)>(
        Find("fakeCudaSetParamCount"));
    Result.callCount =
        reinterpret_cast<decltype(Result.callCount)>(Find("fakeCudaCallCount"));
    Result.totalCalls = reinterpret_cast<decltype(Result.totalCalls)>(
        Find("fakeCudaTotalCalls"));
    Result.lastLaunch = reinterpret_cast<decltype(Result.lastLaunch)>(
        Find("fakeCudaLastLaunch"));
    return Result;
  }();
  return Driver;
}

FakeCudaLaunch lastLaunch() {
  FakeCudaLaunch Launch;
  fakeDriver().lastLaunch(&Launch);
  return Launch;
}

} // namespace tilert::test
