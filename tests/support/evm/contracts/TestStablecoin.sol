// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A stablecoin for tests on a local node: OpenZeppelin's ERC20 with the decimals it is deployed
/// with (6 like USDT on Ethereum, 18 like USDT on BNB Smart Chain) and a mint anyone may call.
/// Deployed a second time under the same symbol, it is the counterfeit the shop must ignore.
contract TestStablecoin is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) {
        _decimals = decimals_;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
