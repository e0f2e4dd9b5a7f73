//===- LowerModules.cpp - nn.Module classes -------------------------------===//
