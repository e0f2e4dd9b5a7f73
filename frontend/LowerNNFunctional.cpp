//===- LowerNNFunctional.cpp - torch.nn.functional and nn model ops -------===//
