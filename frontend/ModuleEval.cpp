//===- ModuleEval.cpp - Evaluate nn.Module __init__ at compile time --------===//
