//===- Main.cpp - Catch2 entry point of the tools' unit tests -------------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
